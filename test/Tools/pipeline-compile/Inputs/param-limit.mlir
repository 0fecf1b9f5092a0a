// A kernel whose arguments fill the kernel parameter space exactly.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @limit(%a: !llvm.array<8191 x i32>) kernel {
      gpu.return
    }
  }
}
