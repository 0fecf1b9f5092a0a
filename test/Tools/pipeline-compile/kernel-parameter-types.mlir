// The kernel parameter table: every argument type a kernel may take, the
// PTX parameter it becomes, and ptxas accepting the result for sm_90a and
// sm_100a (docs/lowering.md, "Kernel ABI"). NVPTX passes i1 as a byte and
// integers of a power-of-two width from 8 bits as they are; any other
// width is widened to the next power of two (a .u2 or .u24 parameter is a
// ptxas syntax error), the kernel truncates it and the host passes the
// value in the low bits. Floats LLVM has no type for travel as their
// storage integer (f8 as .u8; f4 and f6 widened to .u8). Vectors widen
// their elements the same way, i1 included; structs and arrays keep LLVM's
// layout. Memrefs of static shape are one pointer; any other strided
// memref is its pointer, offset, sizes and strides. The rejected types are
// in test/Lowering/legalize-kernel-abi.mlir.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/sm90.ptx
// RUN: FileCheck %s --input-file=%t/sm90.ptx
// RUN: pipeline-compile %s --chip=sm_100a --emit=ptx -o %t/sm100.ptx
// RUN: FileCheck %s --input-file=%t/sm100.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/sm90.ptx -o %t/sm90.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a %t/sm100.ptx -o %t/sm100.cubin %}

module attributes {gpu.container_module} {
gpu.module @m {
  // i1: a byte, as nvcc passes bool
  // CHECK-LABEL: .entry i1(
  // CHECK-NEXT: .param .u8 i1_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i1_param_1
  gpu.func @i1(%a: i1, %o: memref<1xi1>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi1>
    gpu.return
  }
  // widened to i8
  // CHECK-LABEL: .entry i2(
  // CHECK-NEXT: .param .u8 i2_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i2_param_1
  // CHECK-NOT: .entry
  // CHECK: ld.param.b8 %{{rs[0-9]+}}, [i2_param_0];
  gpu.func @i2(%a: i2, %o: memref<1xi2>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi2>
    gpu.return
  }
  // widened to i8
  // CHECK-LABEL: .entry i7(
  // CHECK-NEXT: .param .u8 i7_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i7_param_1
  gpu.func @i7(%a: i7, %o: memref<1xi7>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi7>
    gpu.return
  }
  // CHECK-LABEL: .entry i8(
  // CHECK-NEXT: .param .u8 i8_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i8_param_1
  gpu.func @i8(%a: i8, %o: memref<1xi8>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi8>
    gpu.return
  }
  // CHECK-LABEL: .entry i16(
  // CHECK-NEXT: .param .u16 i16_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i16_param_1
  gpu.func @i16(%a: i16, %o: memref<1xi16>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi16>
    gpu.return
  }
  // widened to i32
  // CHECK-LABEL: .entry i24(
  // CHECK-NEXT: .param .u32 i24_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i24_param_1
  gpu.func @i24(%a: i24, %o: memref<1xi24>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi24>
    gpu.return
  }
  // widened to i64
  // CHECK-LABEL: .entry i33(
  // CHECK-NEXT: .param .u64 i33_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i33_param_1
  // CHECK-NOT: .entry
  // CHECK: ld.param.b64 %{{rd[0-9]+}}, [i33_param_0];
  gpu.func @i33(%a: i33, %o: memref<1xi33>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi33>
    gpu.return
  }
  // widened to i64
  // CHECK-LABEL: .entry i48(
  // CHECK-NEXT: .param .u64 i48_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i48_param_1
  gpu.func @i48(%a: i48, %o: memref<1xi48>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi48>
    gpu.return
  }
  // CHECK-LABEL: .entry i64(
  // CHECK-NEXT: .param .u64 i64_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 i64_param_1
  gpu.func @i64(%a: i64, %o: memref<1xi64>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi64>
    gpu.return
  }
  // widened to i128
  // CHECK-LABEL: .entry i65(
  // CHECK-NEXT: .param .align 16 .b8 i65_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 i65_param_1
  gpu.func @i65(%a: i65, %o: memref<1xi65>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi65>
    gpu.return
  }
  // widened to i128
  // CHECK-LABEL: .entry i96(
  // CHECK-NEXT: .param .align 16 .b8 i96_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 i96_param_1
  gpu.func @i96(%a: i96, %o: memref<1xi96>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi96>
    gpu.return
  }
  // CHECK-LABEL: .entry i128(
  // CHECK-NEXT: .param .align 16 .b8 i128_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 i128_param_1
  gpu.func @i128(%a: i128, %o: memref<1xi128>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi128>
    gpu.return
  }
  // CHECK-LABEL: .entry i256(
  // CHECK-NEXT: .param .align 32 .b8 i256_param_0[32],
  // CHECK-NEXT: .param .u64 .ptr .align 1 i256_param_1
  gpu.func @i256(%a: i256, %o: memref<1xi256>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xi256>
    gpu.return
  }
  // CHECK-LABEL: .entry index(
  // CHECK-NEXT: .param .u64 index_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 index_param_1
  gpu.func @index(%a: index, %o: memref<1xindex>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xindex>
    gpu.return
  }
  // CHECK-LABEL: .entry f16(
  // CHECK-NEXT: .param .align 2 .b8 f16_param_0[2],
  // CHECK-NEXT: .param .u64 .ptr .align 1 f16_param_1
  gpu.func @f16(%a: f16, %o: memref<1xf16>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf16>
    gpu.return
  }
  // CHECK-LABEL: .entry bf16(
  // CHECK-NEXT: .param .align 2 .b8 bf16_param_0[2],
  // CHECK-NEXT: .param .u64 .ptr .align 1 bf16_param_1
  gpu.func @bf16(%a: bf16, %o: memref<1xbf16>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xbf16>
    gpu.return
  }
  // CHECK-LABEL: .entry f32(
  // CHECK-NEXT: .param .f32 f32_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f32_param_1
  gpu.func @f32(%a: f32, %o: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry f64(
  // CHECK-NEXT: .param .f64 f64_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f64_param_1
  gpu.func @f64(%a: f64, %o: memref<1xf64>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf64>
    gpu.return
  }
  // CHECK-LABEL: .entry f128(
  // CHECK-NEXT: .param .align 16 .b8 f128_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 f128_param_1
  gpu.func @f128(%a: f128, %o: memref<1xf128>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf128>
    gpu.return
  }
  // its storage byte
  // CHECK-LABEL: .entry f8E4M3FN(
  // CHECK-NEXT: .param .u8 f8E4M3FN_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f8E4M3FN_param_1
  gpu.func @f8E4M3FN(%a: f8E4M3FN, %o: memref<1xf8E4M3FN>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf8E4M3FN>
    gpu.return
  }
  // CHECK-LABEL: .entry f8E5M2(
  // CHECK-NEXT: .param .u8 f8E5M2_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f8E5M2_param_1
  gpu.func @f8E5M2(%a: f8E5M2, %o: memref<1xf8E5M2>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf8E5M2>
    gpu.return
  }
  // CHECK-LABEL: .entry f8E8M0FNU(
  // CHECK-NEXT: .param .u8 f8E8M0FNU_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f8E8M0FNU_param_1
  gpu.func @f8E8M0FNU(%a: f8E8M0FNU, %o: memref<1xf8E8M0FNU>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf8E8M0FNU>
    gpu.return
  }
  // i6 storage widened to i8
  // CHECK-LABEL: .entry f6E2M3FN(
  // CHECK-NEXT: .param .u8 f6E2M3FN_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f6E2M3FN_param_1
  gpu.func @f6E2M3FN(%a: f6E2M3FN, %o: memref<1xf6E2M3FN>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf6E2M3FN>
    gpu.return
  }
  // CHECK-LABEL: .entry f6E3M2FN(
  // CHECK-NEXT: .param .u8 f6E3M2FN_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f6E3M2FN_param_1
  gpu.func @f6E3M2FN(%a: f6E3M2FN, %o: memref<1xf6E3M2FN>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf6E3M2FN>
    gpu.return
  }
  // i4 storage widened to i8
  // CHECK-LABEL: .entry f4E2M1FN(
  // CHECK-NEXT: .param .u8 f4E2M1FN_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 f4E2M1FN_param_1
  gpu.func @f4E2M1FN(%a: f4E2M1FN, %o: memref<1xf4E2M1FN>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xf4E2M1FN>
    gpu.return
  }
  // elements widened to i8: four bytes
  // CHECK-LABEL: .entry v4i1(
  // CHECK-NEXT: .param .align 4 .b8 v4i1_param_0[4],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v4i1_param_1
  gpu.func @v4i1(%a: vector<4xi1>, %o: memref<1xvector<4xi1>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<4xi1>>
    gpu.return
  }
  // vector<3xi8>, padded to 4 bytes
  // CHECK-LABEL: .entry v3i2(
  // CHECK-NEXT: .param .align 4 .b8 v3i2_param_0[4],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v3i2_param_1
  gpu.func @v3i2(%a: vector<3xi2>, %o: memref<1xvector<3xi2>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<3xi2>>
    gpu.return
  }
  // CHECK-LABEL: .entry v2i4(
  // CHECK-NEXT: .param .align 2 .b8 v2i4_param_0[2],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v2i4_param_1
  gpu.func @v2i4(%a: vector<2xi4>, %o: memref<1xvector<2xi4>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<2xi4>>
    gpu.return
  }
  // vector<4xi64>
  // CHECK-LABEL: .entry v4i33(
  // CHECK-NEXT: .param .align 32 .b8 v4i33_param_0[32],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v4i33_param_1
  gpu.func @v4i33(%a: vector<4xi33>, %o: memref<1xvector<4xi33>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<4xi33>>
    gpu.return
  }
  // vector<2xi8>
  // CHECK-LABEL: .entry v2f4(
  // CHECK-NEXT: .param .align 2 .b8 v2f4_param_0[2],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v2f4_param_1
  gpu.func @v2f4(%a: vector<2xf4E2M1FN>, %o: memref<1xvector<2xf4E2M1FN>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<2xf4E2M1FN>>
    gpu.return
  }
  // CHECK-LABEL: .entry v4f8(
  // CHECK-NEXT: .param .align 4 .b8 v4f8_param_0[4],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v4f8_param_1
  gpu.func @v4f8(%a: vector<4xf8E4M3FN>, %o: memref<1xvector<4xf8E4M3FN>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<4xf8E4M3FN>>
    gpu.return
  }
  // CHECK-LABEL: .entry v2index(
  // CHECK-NEXT: .param .align 16 .b8 v2index_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 v2index_param_1
  gpu.func @v2index(%a: vector<2xindex>, %o: memref<1xvector<2xindex>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xvector<2xindex>>
    gpu.return
  }
  // LLVM's layout: i2 in byte 0, i32 at 4
  // CHECK-LABEL: .entry s_i2_i32(
  // CHECK-NEXT: .param .align 4 .b8 s_i2_i32_param_0[8],
  // CHECK-NEXT: .param .u64 .ptr .align 1 s_i2_i32_param_1
  gpu.func @s_i2_i32(%a: !llvm.struct<(i2, i32)>, %o: memref<1xi2>) kernel {
    %c0 = arith.constant 0 : index
    %v = llvm.extractvalue %a[0] : !llvm.struct<(i2, i32)>
    memref.store %v, %o[%c0] : memref<1xi2>
    gpu.return
  }
  // i65 at 16
  // CHECK-LABEL: .entry s_i1_i65(
  // CHECK-NEXT: .param .align 16 .b8 s_i1_i65_param_0[32],
  // CHECK-NEXT: .param .u64 .ptr .align 1 s_i1_i65_param_1
  gpu.func @s_i1_i65(%a: !llvm.struct<(i1, i65)>, %o: memref<1xi65>) kernel {
    %c0 = arith.constant 0 : index
    %v = llvm.extractvalue %a[1] : !llvm.struct<(i1, i65)>
    memref.store %v, %o[%c0] : memref<1xi65>
    gpu.return
  }
  // a byte per element
  // CHECK-LABEL: .entry a3_i2(
  // CHECK-NEXT: .param .align 1 .b8 a3_i2_param_0[3],
  // CHECK-NEXT: .param .u64 .ptr .align 1 a3_i2_param_1
  gpu.func @a3_i2(%a: !llvm.array<3 x i2>, %o: memref<1xi2>) kernel {
    %c0 = arith.constant 0 : index
    %v = llvm.extractvalue %a[2] : !llvm.array<3 x i2>
    memref.store %v, %o[%c0] : memref<1xi2>
    gpu.return
  }
  // CHECK-LABEL: .entry a2_i33(
  // CHECK-NEXT: .param .align 8 .b8 a2_i33_param_0[16],
  // CHECK-NEXT: .param .u64 .ptr .align 1 a2_i33_param_1
  gpu.func @a2_i33(%a: !llvm.array<2 x i33>, %o: memref<1xi33>) kernel {
    %c0 = arith.constant 0 : index
    %v = llvm.extractvalue %a[1] : !llvm.array<2 x i33>
    memref.store %v, %o[%c0] : memref<1xi33>
    gpu.return
  }
  // CHECK-LABEL: .entry c_f32(
  // CHECK-NEXT: .param .align 4 .b8 c_f32_param_0[8],
  // CHECK-NEXT: .param .u64 .ptr .align 1 c_f32_param_1
  gpu.func @c_f32(%a: complex<f32>, %o: memref<1xcomplex<f32>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %o[%c0] : memref<1xcomplex<f32>>
    gpu.return
  }
  // Memrefs of static shape: one pointer, whatever the element type.
  // CHECK-LABEL: .entry m_i2(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_i2_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_i2_param_1
  // CHECK-NEXT: )
  gpu.func @m_i2(%a: memref<16xi2>, %o: memref<1xi2>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %a[%c0] : memref<16xi2>
    memref.store %v, %o[%c0] : memref<1xi2>
    gpu.return
  }
  // CHECK-LABEL: .entry m_f4(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_f4_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_f4_param_1
  // CHECK-NEXT: )
  gpu.func @m_f4(%a: memref<16xf4E2M1FN>, %o: memref<1xf4E2M1FN>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %a[%c0] : memref<16xf4E2M1FN>
    memref.store %v, %o[%c0] : memref<1xf4E2M1FN>
    gpu.return
  }
  // CHECK-LABEL: .entry m_i7(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_i7_param_0,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_i7_param_1
  // CHECK-NEXT: )
  gpu.func @m_i7(%a: memref<16xi7>, %o: memref<1xi7>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %a[%c0] : memref<16xi7>
    memref.store %v, %o[%c0] : memref<1xi7>
    gpu.return
  }
  // A dynamic memref: pointer, offset, size, stride (8 bytes each). The
  // kernel reads the last element, at pointer + 4 * (size - 1): the size
  // parameter reaches the address, the static offset and stride are the
  // type's.
  // CHECK-LABEL: .entry m_dyn1(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn1_param_0,
  // CHECK-NEXT: .param .u64 m_dyn1_param_1,
  // CHECK-NEXT: .param .u64 m_dyn1_param_2,
  // CHECK-NEXT: .param .u64 m_dyn1_param_3,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn1_param_4
  // CHECK-NEXT: )
  // CHECK-NOT: .entry
  // CHECK: ld.param.b64 %[[SIZE1:rd[0-9]+]], [m_dyn1_param_2];
  // CHECK-NOT: .entry
  // CHECK: shl.b64 %{{rd[0-9]+}}, %[[SIZE1]], 2;
  gpu.func @m_dyn1(%a: memref<?xf32>, %o: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?xf32>
    %i = arith.subi %n, %c1 : index
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %o[%c0] : memref<1xf32>
    gpu.return
  }
  // Rank 2: pointer, offset, two sizes, two strides. The row stride is the
  // type's 32: [size0 - 1, 1] is at pointer + 128 * size0 - 124.
  // CHECK-LABEL: .entry m_dyn2(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn2_param_0,
  // CHECK-NEXT: .param .u64 m_dyn2_param_1,
  // CHECK-NEXT: .param .u64 m_dyn2_param_2,
  // CHECK-NEXT: .param .u64 m_dyn2_param_3,
  // CHECK-NEXT: .param .u64 m_dyn2_param_4,
  // CHECK-NEXT: .param .u64 m_dyn2_param_5,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn2_param_6
  // CHECK-NEXT: )
  // CHECK-NOT: .entry
  // CHECK: ld.param.b64 %[[SIZE2:rd[0-9]+]], [m_dyn2_param_2];
  // CHECK-NOT: .entry
  // CHECK: shl.b64 %{{rd[0-9]+}}, %[[SIZE2]], 7;
  // CHECK-NOT: .entry
  // CHECK: ld.global.b32 %{{r[0-9]+}}, [%{{rd[0-9]+}}+-124];
  gpu.func @m_dyn2(%a: memref<?x32xf32>, %o: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?x32xf32>
    %i = arith.subi %n, %c1 : index
    %v = memref.load %a[%i, %c1] : memref<?x32xf32>
    memref.store %v, %o[%c0] : memref<1xf32>
    gpu.return
  }
  // A static shape with a dynamic row stride: the stride parameter (the
  // fifth, after pointer, offset and two sizes) scales the row index.
  // CHECK-LABEL: .entry m_stride(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_stride_param_0,
  // CHECK-NEXT: .param .u64 m_stride_param_1,
  // CHECK-NEXT: .param .u64 m_stride_param_2,
  // CHECK-NEXT: .param .u64 m_stride_param_3,
  // CHECK-NEXT: .param .u64 m_stride_param_4,
  // CHECK-NEXT: .param .u64 m_stride_param_5,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_stride_param_6
  // CHECK-NEXT: )
  // CHECK-NOT: .entry
  // CHECK: ld.param.b64 %{{rd[0-9]+}}, [m_stride_param_4];
  gpu.func @m_stride(%a: memref<4x4xf32, strided<[?, 1]>>, %o: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<4x4xf32, strided<[?, 1]>>
    %i = arith.subi %n, %c1 : index
    %v = memref.load %a[%i, %c1] : memref<4x4xf32, strided<[?, 1]>>
    memref.store %v, %o[%c0] : memref<1xf32>
    gpu.return
  }
  // A dynamic offset: the offset parameter reaches the address.
  // CHECK-LABEL: .entry m_offset(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_offset_param_0,
  // CHECK-NEXT: .param .u64 m_offset_param_1,
  // CHECK-NEXT: .param .u64 m_offset_param_2,
  // CHECK-NEXT: .param .u64 m_offset_param_3,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_offset_param_4
  // CHECK-NEXT: )
  // CHECK-NOT: .entry
  // CHECK: ld.param.b64 %{{rd[0-9]+}}, [m_offset_param_1];
  gpu.func @m_offset(%a: memref<?xf32, strided<[?], offset: ?>>, %o: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?xf32, strided<[?], offset: ?>>
    %i = arith.subi %n, %c1 : index
    %v = memref.load %a[%i] : memref<?xf32, strided<[?], offset: ?>>
    memref.store %v, %o[%c0] : memref<1xf32>
    gpu.return
  }
  // CHECK-LABEL: .entry m_dyn_i2(
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn_i2_param_0,
  // CHECK-NEXT: .param .u64 m_dyn_i2_param_1,
  // CHECK-NEXT: .param .u64 m_dyn_i2_param_2,
  // CHECK-NEXT: .param .u64 m_dyn_i2_param_3,
  // CHECK-NEXT: .param .u64 .ptr .align 1 m_dyn_i2_param_4
  // CHECK-NEXT: )
  gpu.func @m_dyn_i2(%a: memref<?xi2>, %o: memref<1xi2>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?xi2>
    %i = arith.subi %n, %c1 : index
    %v = memref.load %a[%i] : memref<?xi2>
    memref.store %v, %o[%c0] : memref<1xi2>
    gpu.return
  }
}
}
