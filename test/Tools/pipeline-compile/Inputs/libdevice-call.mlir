// A kernel that calls libdevice: math.exp and math.sin become __nv_expf and
// __nv_sinf.
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%a: f32, %o: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %e = math.exp %a : f32
    %s = math.sin %e : f32
    memref.store %s, %o[%c0] : memref<4xf32>
    gpu.return
  }
}
}
