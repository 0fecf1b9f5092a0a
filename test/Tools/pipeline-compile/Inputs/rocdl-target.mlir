// A gpu.module that also carries a ROCDL target.
module attributes {gpu.container_module} {
  gpu.module @both [#nvvm.target<chip = "sm_90a">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
