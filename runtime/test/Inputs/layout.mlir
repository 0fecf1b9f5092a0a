// A kernel with one argument of each kind the host runtime passes: scalars
// of 1, 8, 16 and 32 bits, a dynamic and a static memref, a tensor map.
!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%a: i1, %b: i8, %c: i16, %d: memref<?x32xf32>, %e: memref<4xf32>, %t: !desc, %n: i32) kernel {
    gpu.return
  }
}
}
