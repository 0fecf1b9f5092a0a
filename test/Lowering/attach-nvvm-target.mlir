// RUN: pipeline-opt %s -pipeline-attach-nvvm-target="chip=sm_90a opt-level=1" | FileCheck %s
// RUN: pipeline-opt %s -pipeline-attach-nvvm-target="chip=sm_103a" | FileCheck %s --check-prefix=SM103
// RUN: not pipeline-opt %s -pipeline-attach-nvvm-target="chip=sm_89" 2>&1 | FileCheck %s --check-prefix=BAD

// Every gpu.module gets exactly one #nvvm.target; an #nvvm.target already
// there is replaced (its flags and link files are kept), other targets
// stay. The default features are PTX ISA 8.6, or the chip's minimum.

// CHECK:  gpu.module @none [#nvvm.target<O = 1, chip = "sm_90a", features = "+ptx86">]
// SM103:  gpu.module @none [#nvvm.target<O = 3, chip = "sm_103a", features = "+ptx88">]
gpu.module @none {
}
// CHECK:  gpu.module @retarget [#nvvm.target<O = 1, chip = "sm_90a", features = "+ptx86", flags = {fast}>]
gpu.module @retarget [#nvvm.target<chip = "sm_100a", features = "+ptx87", flags = {fast}>] {
}
// CHECK:  gpu.module @mixed [#nvvm.target<O = 1, chip = "sm_90a", features = "+ptx86">, #rocdl.target<chip = "gfx90a">]
gpu.module @mixed [#rocdl.target<chip = "gfx90a">, #nvvm.target<chip = "sm_80">] {
}

// BAD: error: pipeline-attach-nvvm-target expects chip to be one of sm_90, {{.*}}, got 'sm_89'
