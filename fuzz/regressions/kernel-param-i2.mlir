// Found by fuzzing: a kernel parameter of a sub-byte integer type (i2). The
// compiler accepted the kernel and the NVPTX backend declared the parameter
// as `.param .u2`, which ptxas rejected ("Parsing error near '.u2'").
// Fix: pipeline-legalize-kernel-abi (lib/Lowering/LegalizeKernelABI.cpp)
// widens a scalar parameter of an odd width to the next power of two (here
// i8) and truncates it inside the kernel; launches pass the widened value.
// Lit tests: test/Lowering/legalize-kernel-abi.mlir and, through ptxas,
// test/Tools/pipeline-compile/kernel-parameter-types.mlir.
// Replay: lowered for sm_90a and sm_100a and assembled by ptxas.
gpu.module @m {
  gpu.func @k(%a: i2, %o: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %v = arith.extui %a : i2 to i32
    memref.store %v, %o[%c0] : memref<4xi32>
    gpu.return
  }
}
