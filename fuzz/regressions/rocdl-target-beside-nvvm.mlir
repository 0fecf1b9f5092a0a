// Found by fuzzing (a mutation of the seed test/Lowering/attach-nvvm-target.mlir):
// a gpu.module with a non-NVVM target beside #nvvm.target. The compile
// driver serialized every target and took the first object as the PTX:
// AMDGPU assembly in the .ptx file, or, with a kernel, an abort in the AMDGPU
// backend.
// Fix: pmlir::lowerToPTX (lib/Compiler/Compiler.cpp) rejects any target other
// than #nvvm.target before lowering: "'gpu.module' op expects only
// #nvvm.target targets". Lit test: test/Tools/pipeline-compile/bad-input.mlir.
// Replay: parsed and checked, lowered to NVVM; the PTX step reports the error.
gpu.module @m [#rocdl.target<chip = "gfx90a">, #nvvm.target<chip = "sm_80">] {
  gpu.func @k(%o: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    memref.store %c7, %o[%c0] : memref<4xi32>
    gpu.return
  }
}
