module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @first_kernel() kernel {
      %p = pipeline.create -> !pipeline.pipeline<stages = 2>
      pipeline.init_mbars %p producer 1 consumer 1 : !pipeline.pipeline<stages = 2>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @second_kernel() kernel {
      gpu.return
    }
  }
}
