// pipeline-compile checks its options and finds ptxas before compiling.
// RUN: rm -rf %t && mkdir -p %t/old/bin %t/new/bin
// RUN: printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' > %t/old/bin/ptxas
// RUN: printf '#!/bin/sh\necho "Cuda compilation tools, release 12.9, V12.9.41"\n' > %t/new/bin/ptxas
// RUN: mkdir -p %t/new13/bin
// RUN: printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\n' > %t/new13/bin/ptxas
// RUN: chmod +x %t/old/bin/ptxas %t/new/bin/ptxas %t/new13/bin/ptxas

// RUN: not pipeline-compile %s --chip=sm_89 --cuda-path=%t/new -o %t/out 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: pipeline-compile: error: expects chip to be one of sm_90, sm_90a, sm_100, sm_100a, sm_101a, sm_103, sm_103a, sm_110, sm_110a, sm_120, sm_120a, got 'sm_89'

// RUN: not pipeline-compile %s --chip=sm_90a -O4 --cuda-path=%t/new -o %t/out 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: pipeline-compile: error: expects opt-level 0 to 3, got 4

// RUN: not pipeline-compile %s --chip=sm_100a --features=+ptx85 --cuda-path=%t/new -o %t/out 2>&1 | FileCheck %s --check-prefix=FEATURES
// FEATURES: pipeline-compile: error: expects PTX ISA 8.6 or newer for sm_100a, got '+ptx85' (PTX ISA 8.5)

// An output path naming no file (empty, a directory, only an extension).
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%t/new -o "" 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%t/new -o .ptx 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%t/new -o %t/ 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: pipeline-compile: error: expects -o to name a file path such as 'out' (writes out.ptx and out.cubin), got '{{.*}}'
// An output directory that does not exist.
// RUN: not pipeline-compile %S/../../../examples/warp_specialized.mlir --chip=sm_90a --emit=ptx --cuda-path=%cuda_path -o %t/nodir/out 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: pipeline-compile: error: cannot open output file '{{.*}}nodir/out': No such file or directory

// ptxas is looked up in --cuda-path, then $CUDA_HOME, then $CUDA_PATH, then
// /usr/local/cuda (toolkit-location.mlir).
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%t/missing -o %t/out 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: pipeline-compile: error: ptxas not found: no executable {{.*}}missing/bin/ptxas (CUDA toolkit from cuda-path); give the CUDA toolkit directory with cuda-path (--cuda-path), CUDA_HOME or CUDA_PATH
// RUN: env CUDA_HOME=%t/missing2 not pipeline-compile %s --chip=sm_90a -o %t/out 2>&1 | FileCheck %s --check-prefix=HOME
// HOME: pipeline-compile: error: ptxas not found: no executable {{.*}}missing2/bin/ptxas (CUDA toolkit from CUDA_HOME)

// A ptxas too old for the chip (sm_100a needs CUDA 12.7 for PTX ISA 8.6),
// found through --cuda-path or CUDA_HOME.
// RUN: not pipeline-compile %s --chip=sm_100a --cuda-path=%t/old -o %t/out 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: env CUDA_HOME=%t/old not pipeline-compile %s --chip=sm_100a -o %t/out 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: pipeline-compile: error: ptxas {{.*}}old/bin/ptxas is from CUDA 12.4, too old for sm_100a with PTX ISA 8.6: needs CUDA 12.7 or newer
// RUN: not pipeline-compile %s --chip=sm_103a --cuda-path=%t/old -o %t/out 2>&1 | FileCheck %s --check-prefix=OLD103
// OLD103: error: ptxas {{.*}} is from CUDA 12.4, too old for sm_103a with PTX ISA 8.8: needs CUDA 12.9 or newer
// RUN: not pipeline-compile %s --chip=sm_110a --cuda-path=%t/new -o %t/out 2>&1 | FileCheck %s --check-prefix=OLD110
// OLD110: error: ptxas {{.*}} is from CUDA 12.9, too old for sm_110a with PTX ISA 9.0: needs CUDA 13.0 or newer

// sm_101a: PTX ISA 8.6 to 8.8, ptxas of CUDA 12.8 or 12.9 only.
// RUN: not pipeline-compile %s --chip=sm_101a --cuda-path=%t/new13 -o %t/out 2>&1 | FileCheck %s --check-prefix=SM101
// SM101: pipeline-compile: error: ptxas {{.*}}new13/bin/ptxas is from CUDA 13.0, which no longer knows sm_101a (CUDA 13.0 renamed it sm_110a): give a CUDA toolkit older than 13.0 with cuda-path, CUDA_HOME or CUDA_PATH, or compile for sm_110a
// RUN: not pipeline-compile %s --chip=sm_101a --features=+ptx90 -o %t/out 2>&1 | FileCheck %s --check-prefix=SM101PTX
// SM101PTX: pipeline-compile: error: expects PTX ISA 8.8 or older for sm_101a, got '+ptx90' (PTX ISA 9.0 knows the chip as sm_110a)

// An option given twice is an error naming both values.
// RUN: not pipeline-compile %s --chip=sm_90a --chip=sm_100a -o %t/out 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: pipeline-compile: error: expects --chip once, got 'sm_90a' and 'sm_100a'
// RUN: not pipeline-compile %s -O1 --opt-level=2 -o %t/out 2>&1 | FileCheck %s --check-prefix=TWICEOPT
// TWICEOPT: pipeline-compile: error: expects --opt-level once, got '1' and '2'
// RUN: not pipeline-compile %s --cuda-path=%t/new --cuda-path=%t/old -o %t/out 2>&1 | FileCheck %s --check-prefix=TWICEPATH
// TWICEPATH: pipeline-compile: error: expects --cuda-path once, got '{{.*}}new' and '{{.*}}old'
// RUN: not pipeline-compile %s --features=+ptx86,+ptx88 -o %t/out 2>&1 | FileCheck %s --check-prefix=TWOPTX
// TWOPTX: pipeline-compile: error: expects one PTX ISA version in features, got '+ptx86' and '+ptx88' in '+ptx86,+ptx88'
// RUN: not pipeline-compile %s --features=+ptx86 --features=+ptx88 -o %t/out 2>&1 | FileCheck %s --check-prefix=TWICEFEAT
// TWICEFEAT: pipeline-compile: error: expects --features once, got '+ptx86' and '+ptx88'

// Lowering errors are reported at the op, and nothing is written.
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%t/new -o %t/out 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not test -e %t/out.ptx
// OP: errors.mlir:[[@LINE+10]]:5: error: 'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from --chip)
// OP-NOT: see current operation

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %s = pipeline.acquire_producer %p : !P
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}
}
