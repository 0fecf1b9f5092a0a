// RUN: pipeline-opt %s -split-input-file -pipeline-verify-linearity -verify-diagnostics

// consumer_depth: the wgmma release lag. A consumer that keeps one MMA group
// in flight frees stage k-1 only after it issued the MMAs of stage k, so it
// holds two stages at once. The pipeline type declares that depth; the
// checker allows that many outstanding consumer stages, no more, and
// requires them to be released in the order they were acquired.

// The canonical lag loop: acquire the first stage before the loop, and in
// each iteration acquire the next, release the previous, carry the new one.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @release_lag(%p: !P, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = pipeline.acquire_consumer %p : !P
  %last = scf.for %i = %c1 to %n step %c1 iter_args(%prev = %first) -> (!pipeline.stage<consumer, !P>) {
    %cur = pipeline.acquire_consumer %p : !P
    pipeline.release %prev : !pipeline.stage<consumer, !P>
    scf.yield %cur : !pipeline.stage<consumer, !P>
  }
  pipeline.release %last : !pipeline.stage<consumer, !P>
  return
}

// -----

// Depth 2 with three stages held: the third acquire waits on a stage the
// producer cannot fill until one of the two is freed.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @three_outstanding(%p: !P) {
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_consumer %p : !P
  %b = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{acquires a consumer stage while 2 consumer stages of this pipeline are outstanding, its consumer_depth: release the oldest first}}
  %c = pipeline.acquire_consumer %p : !P
  pipeline.release %a : !pipeline.stage<consumer, !P>
  pipeline.release %b : !pipeline.stage<consumer, !P>
  pipeline.release %c : !pipeline.stage<consumer, !P>
  return
}

// -----

// Released out of order: the producer waits on the older stage first.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @out_of_order(%p: !P) {
  // expected-note @+1 {{older stage acquired here}}
  %a = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{stage acquired here}}
  %b = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{releases a consumer stage while an older consumer stage of this pipeline is still outstanding: stages are freed in the order they were acquired, since the producer waits on them in that order}}
  pipeline.release %b : !pipeline.stage<consumer, !P>
  pipeline.release %a : !pipeline.stage<consumer, !P>
  return
}

// -----

// Without the declaration, the lag is the old error, with a hint.
!P = !pipeline.pipeline<stages = 4>
func.func @lag_without_depth(%p: !P) {
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{acquires a consumer stage while another consumer stage of this pipeline is outstanding: it waits on the same stage twice (hang); a consumer that frees a stage only after acquiring the next (the wgmma release lag) declares consumer_depth = 2 on the pipeline type}}
  %b = pipeline.acquire_consumer %p : !P
  pipeline.release %a : !pipeline.stage<consumer, !P>
  pipeline.release %b : !pipeline.stage<consumer, !P>
  return
}

// -----

// The depth is the consumer's: the producer still holds one stage at most.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @producer_depth_one(%p: !P) {
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_producer %p : !P
  // expected-error @+1 {{acquires a producer stage while another producer stage of this pipeline is outstanding}}
  %b = pipeline.acquire_producer %p : !P
  pipeline.arrive %a : !pipeline.stage<producer, !P>
  pipeline.release %a : !pipeline.stage<producer, !P>
  pipeline.release %b : !pipeline.stage<producer, !P>
  return
}

// -----

// A consume region releases at its exit: with an older stage outstanding
// that release would be out of order.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @region_with_outstanding(%p: !P) {
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{acquires a consumer stage while another consumer stage of this pipeline is outstanding}}
  pipeline.consume %p as %s : !P {
  }
  pipeline.release %a : !pipeline.stage<consumer, !P>
  return
}

// -----

// The leak rules still hold: the last stage of the lag loop must be freed.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
func.func @lag_leak(%p: !P, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{stage acquired here}}
  %first = pipeline.acquire_consumer %p : !P
  %last = scf.for %i = %c1 to %n step %c1 iter_args(%prev = %first) -> (!pipeline.stage<consumer, !P>) {
    %cur = pipeline.acquire_consumer %p : !P
    pipeline.release %prev : !pipeline.stage<consumer, !P>
    scf.yield %cur : !pipeline.stage<consumer, !P>
  }
  // expected-error @+1 {{stage handle leaks at the end of the function}}
  return
}
