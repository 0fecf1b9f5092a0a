// Found by fuzzing: a kernel whose symbol is no PTX identifier, @my.kernel.
// The name reached the PTX as written and ptxas rejected it ("Parsing error
// near '.kernel'").
// Fix: pipeline-legalize-kernel-abi (lib/Lowering/LegalizeKernelABI.cpp)
// rejects kernel names that are no PTX identifier, naming them. Lit test:
// test/Lowering/legalize-kernel-abi.mlir.
// Replay: passes the checkers; the lowering reports the error, nothing
// reaches ptxas.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @my.kernel(%o: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    memref.store %c7, %o[%c0] : memref<4xi32>
    gpu.return
  }
}
