// Two gpu.modules, one whose symbol would leave the -o prefix's directory.
module attributes {gpu.container_module} {
  gpu.module @fine {
    gpu.func @a() kernel {
      gpu.return
    }
  }
  gpu.module @"sub/../x" {
    gpu.func @b() kernel {
      gpu.return
    }
  }
}
