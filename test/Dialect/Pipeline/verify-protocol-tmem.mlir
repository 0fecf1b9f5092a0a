// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// The lifecycle of tensor memory: allocated once by the whole CTA, freed by
// one warp after exactly `readers` threads of each CTA released it.

!T = !pipeline.tmem<columns = 256>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @never_freed() kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    // expected-error @+1 {{allocates 256 TMEM columns that no pipeline.tmem_dealloc frees: the CTA exits holding them, and the next CTA on its SM waits in tcgen05.alloc forever}}
    %base = pipeline.tmem_alloc %t readers 128 : !T -> i32
    pipeline.tmem_release %t : !T
    gpu.return
  }
}

// -----

!T = !pipeline.tmem<columns = 256>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @alloc_in_a_warp() kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %w0 {
      // expected-error @+1 {{is collective over the CTA (one warp allocates, then every thread synchronizes and reads the address): it must be in the kernel's entry block, where every thread reaches it}}
      %base = pipeline.tmem_alloc %t readers 32 : !T -> i32
      pipeline.tmem_release %t : !T
      pipeline.tmem_dealloc %t, %base : !T
    }
    gpu.return
  }
}

// -----

// Half the readers release: the deallocation barrier never completes.
!T = !pipeline.tmem<columns = 256, cta_group = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @short_readers() kernel attributes {nvvm.reqntid = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    // expected-error @+1 {{expects 128 readers to release this tensor memory, but 64 threads of the CTA execute pipeline.tmem_release: the deallocation barrier never completes and the freeing warp waits forever}}
    %base = pipeline.tmem_alloc %t readers 128 : !T -> i32
    %tid = gpu.thread_id x
    %epi = arith.cmpi uge, %tid, %c128 : index
    scf.if %epi {
      // expected-note @+1 {{release}}
      pipeline.tmem_release %t : !T
    }
    %w0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %w0 {
      pipeline.tmem_dealloc %t, %base : !T
    }
    gpu.return
  }
}

// -----

// Every thread frees: tcgen05.dealloc is warp-collective, and the second
// warp frees the columns again.
!T = !pipeline.tmem<columns = 256>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @dealloc_everywhere() kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    %base = pipeline.tmem_alloc %t readers 64 : !T -> i32
    pipeline.tmem_release %t : !T
    // expected-error @+1 {{is executed by 64 threads of the CTA; expects one whole warp (32)}}
    pipeline.tmem_dealloc %t, %base : !T
    gpu.return
  }
}

// -----

!T = !pipeline.tmem<columns = 256>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @nobody_releases() kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    %base = pipeline.tmem_alloc %t readers 32 : !T -> i32
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %w0 {
      // expected-error @+1 {{waits for the 32 releases of the deallocation barrier (32 readers), but no pipeline.tmem_release signals it: the warp waits forever}}
      pipeline.tmem_dealloc %t, %base : !T
    }
    gpu.return
  }
}

// -----

!T = !pipeline.tmem<columns = 256>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @twice() kernel {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    // expected-error @+1 {{expects exactly one pipeline.tmem_alloc of this tensor memory, got 2}}
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    // expected-note @+1 {{allocation}}
    %a = pipeline.tmem_alloc %t readers 32 : !T -> i32
    // expected-note @+1 {{allocation}}
    %b = pipeline.tmem_alloc %t readers 32 : !T -> i32
    gpu.return
  }
}
