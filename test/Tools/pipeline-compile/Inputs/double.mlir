// A kernel computing in double precision (ptxas can warn about it).
module attributes {gpu.container_module} {
 gpu.module @d {
 gpu.func @d(%a: memref<4xf64>) kernel {
 %c0 = arith.constant 0 : index
 %v = memref.load %a[%c0] : memref<4xf64>
 %w = arith.mulf %v, %v : f64
 memref.store %w, %a[%c0] : memref<4xf64>
 gpu.return
 }
 }
}
