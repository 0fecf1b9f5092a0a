// A warp-specialized producer/consumer kernel written with the pipeline
// dialect: warp 0 produces `ROWS` rows of 32 i32 values into a 4-stage
// shared-memory ring, warp 1 consumes them and writes them out.
//
// Launch: grid (1, 1, 1), block (64, 1, 1), dynamic shared memory
// = pipeline.smem_bytes (64) + 4 * 32 * 4 bytes = 576 bytes.
// Arguments (bare pointers): in: i32[ROWS][32], out: i32[ROWS][32].
//
// Check and print:   pipeline-opt examples/warp_specialized.mlir

!P = !pipeline.pipeline<stages = 4>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!Ring = memref<4x32xi32, #gpu.address_space<workgroup>>
!Rows = memref<1000x32xi32>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy_through_pipeline(%in: !Rows, %out: !Rows) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %rows = arith.constant 1000 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %lane = arith.remui %tid, %c32 : index

      // Barriers first, then the ring of data stages, in dynamic smem.
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      %bar_bytes = pipeline.smem_bytes !P
      %ring = memref.view %smem[%bar_bytes][] : !Smem to !Ring

      // Every lane of the producer warp arrives on `full`, every lane of the
      // consumer warp on `empty`: 32 arrivals complete a phase.
      pipeline.init_mbars %p producer 32 consumer 32 : !P

      %is_producer = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_producer {
        scf.for %row = %c0 to %rows step %c1 {
          pipeline.produce %p as %stage : !P {
            %slot = pipeline.index %stage : !pipeline.stage<producer, !P>
            %v = memref.load %in[%row, %lane] : !Rows
            memref.store %v, %ring[%slot, %lane] : !Ring
            pipeline.arrive %stage : !pipeline.stage<producer, !P>
          }
        }
        // Wait until the consumer freed every stage before the warp exits.
        pipeline.drain_producer %p : !P
      } else {
        scf.for %row = %c0 to %rows step %c1 {
          pipeline.consume %p as %stage : !P {
            %slot = pipeline.index %stage : !pipeline.stage<consumer, !P>
            %v = memref.load %ring[%slot, %lane] : !Ring
            memref.store %v, %out[%row, %lane] : !Rows
          }
        }
      }
      gpu.return
    }
  }
}
