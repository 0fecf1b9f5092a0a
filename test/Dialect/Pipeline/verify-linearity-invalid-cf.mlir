// RUN: pipeline-opt %s -pipeline-verify-linearity -split-input-file -verify-diagnostics

// Rule 2 on unstructured control flow: the handles held must agree at every
// merge and back edge, and every exit must have released them. Blocks are
// named by their position in the region, as pipeline-opt prints them.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @diamond_leak(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  pipeline.release %s : !CS
  cf.br ^bb3
^bb2:
  // expected-error @+1 {{stage handle leaks on the path through ^bb2: it is held on the edge to ^bb3 but not on the edge from ^bb1}}
  cf.br ^bb3
^bb3:
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @acquired_on_one_path(%c: i1) {
  %p = pipeline.create -> !P
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks on the path through ^bb1: it is held on the edge to ^bb3 but not on the edge from ^bb2}}
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @exit_leak(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  pipeline.release %s : !CS
  return
^bb2:
  // expected-error @+1 {{stage handle leaks on the path through ^bb2}}
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @loop_releases_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  // expected-error @+1 {{stage handle held on entry to the loop at ^bb1 is released inside it (back edge from ^bb2): it is released again on the next iteration}}
  pipeline.release %s : !CS
  %i1 = arith.addi %i, %c1 : index
  cf.br ^bb1(%i1 : index)
^bb3:
  pipeline.release %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @held_on_back_edge(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %i1 = arith.addi %i, %c1 : index
  // expected-error @+1 {{stage handle leaks on the path through ^bb2: it is still held on the back edge to ^bb1}}
  cf.br ^bb1(%i1 : index)
^bb3:
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @block_argument_leaks(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.br ^bb1(%s : !CS)
^bb1(%t: !CS):
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  pipeline.release %t : !CS
  return
^bb3:
  // expected-error @+1 {{stage handle leaks on the path through ^bb3}}
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @use_after_passed_to_block(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{passed on here}}
  cf.br ^bb1(%s : !CS)
^bb1(%t: !CS):
  pipeline.release %t : !CS
  // expected-error @+1 {{stage handle used after it was passed on}}
  pipeline.release %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @switch_case_leaks(%k: i32) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.switch %k : i32, [
    default: ^bb1,
    0: ^bb2,
    1: ^bb3
  ]
^bb1:
  pipeline.release %s : !CS
  return
^bb2:
  pipeline.release %s : !CS
  return
^bb3:
  // expected-error @+1 {{stage handle leaks on the path through ^bb3}}
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @passed_twice() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle passed twice to ^bb1}}
  cf.br ^bb1(%s, %s : !CS, !CS)
^bb1(%a: !CS, %b: !CS):
  pipeline.release %a : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @cf_role_conflict(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{outstanding stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{acquires a consumer stage while another consumer stage of this pipeline is outstanding}}
  %t = pipeline.acquire_consumer %p : !P
  pipeline.release %t : !CS
  pipeline.release %s : !CS
  return
}
