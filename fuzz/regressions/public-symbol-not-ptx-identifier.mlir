// Found by fuzzing: a public symbol of a gpu.module that is no PTX
// identifier (a global @table.v1). It reached the PTX as written and ptxas
// rejected it ("Parsing error near '.v1'").
// Fix: pipeline-legalize-kernel-abi (lib/Lowering/LegalizeKernelABI.cpp)
// rejects public symbols that are no PTX identifier, naming them; private
// ones are renamed by the NVPTX backend and stay accepted. Lit test:
// test/Lowering/legalize-kernel-abi.mlir.
// Replay: passes the checkers; the lowering reports the error, nothing
// reaches ptxas.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  llvm.mlir.global external @table.v1(0 : i32) {addr_space = 1 : i32} : i32
  gpu.func @k(%o: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    memref.store %c7, %o[%c0] : memref<4xi32>
    gpu.return
  }
}
