// An unterminated string right after a dialect type: the parser reports it
// and goes on.
!P = !pipeline.pipeline<stages = 2>"abc
module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}
