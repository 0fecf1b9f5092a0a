// Two gpu.modules; the second one fails to lower on sm_90a.
!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @a() kernel {
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @b() kernel {
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      %s = pipeline.acquire_producer %p : !P
      pipeline.commit_mma %s : !pipeline.stage<producer, !P>
      pipeline.release %s : !pipeline.stage<producer, !P>
      gpu.return
    }
  }
}
