// Found by fuzzing: a negative block size, known_block_size =
// array<i32: 64, -1, 1>. It failed in the LLVM translation with an error
// without a location.
// Fix: pipeline-legalize-kernel-abi (lib/Lowering/LegalizeKernelABI.cpp)
// requires positive sizes in known_block_size, known_grid_size, nvvm.reqntid
// and nvvm.maxntid, naming the attribute. Lit test:
// test/Lowering/legalize-kernel-abi.mlir.
// Replay: passes the checkers; the lowering reports the error, nothing
// reaches ptxas. (Before the fix it failed later, without a crash: the
// replay checks that nothing crashes, the lit test checks the diagnostic.)
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%o: memref<4xi32>) kernel attributes {known_block_size = array<i32: 64, -1, 1>} {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    memref.store %c7, %o[%c0] : memref<4xi32>
    gpu.return
  }
}
