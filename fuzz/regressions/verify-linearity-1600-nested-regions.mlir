// Found with the sanitizer build, before the long fuzzing runs
// (docs/robustness.md): 1600 nested pipeline.produce regions (the DEEPER
// input of test/Dialect/Pipeline/verify-linearity-nested-scoped.mlir; its
// RUN lines generate it, so it is no seed). The recursive walk of
// pipeline-verify-linearity overflowed the stack (a sanitizer build's
// larger frames overflow at about 1500 levels).
// Fix: pipeline-verify-linearity (lib/Dialect/Pipeline/Analysis/
// StageLinearity.cpp) refuses a function with regions nested more than 512
// deep with one error ("regions nested more than 512 deep") instead of
// recursing. Lit test: test/Dialect/Pipeline/verify-linearity-nested-scoped.mlir.
// Replay: parsed (upstream's parser copes with 1600 levels), rejected by the
// checkers without a crash. The body below is
//   awk 'BEGIN { for (i = 0; i < 1600; i++) print "pipeline.produce %p as %s" i " : !P {";
//                for (i = 0; i < 1600; i++) print "}" }'
!P = !pipeline.pipeline<stages = 2>
func.func @deeper(%p: !P) {
pipeline.produce %p as %s0 : !P {
pipeline.produce %p as %s1 : !P {
pipeline.produce %p as %s2 : !P {
pipeline.produce %p as %s3 : !P {
pipeline.produce %p as %s4 : !P {
pipeline.produce %p as %s5 : !P {
pipeline.produce %p as %s6 : !P {
pipeline.produce %p as %s7 : !P {
pipeline.produce %p as %s8 : !P {
pipeline.produce %p as %s9 : !P {
pipeline.produce %p as %s10 : !P {
pipeline.produce %p as %s11 : !P {
pipeline.produce %p as %s12 : !P {
pipeline.produce %p as %s13 : !P {
pipeline.produce %p as %s14 : !P {
pipeline.produce %p as %s15 : !P {
pipeline.produce %p as %s16 : !P {
pipeline.produce %p as %s17 : !P {
pipeline.produce %p as %s18 : !P {
pipeline.produce %p as %s19 : !P {
pipeline.produce %p as %s20 : !P {
pipeline.produce %p as %s21 : !P {
pipeline.produce %p as %s22 : !P {
pipeline.produce %p as %s23 : !P {
pipeline.produce %p as %s24 : !P {
pipeline.produce %p as %s25 : !P {
pipeline.produce %p as %s26 : !P {
pipeline.produce %p as %s27 : !P {
pipeline.produce %p as %s28 : !P {
pipeline.produce %p as %s29 : !P {
pipeline.produce %p as %s30 : !P {
pipeline.produce %p as %s31 : !P {
pipeline.produce %p as %s32 : !P {
pipeline.produce %p as %s33 : !P {
pipeline.produce %p as %s34 : !P {
pipeline.produce %p as %s35 : !P {
pipeline.produce %p as %s36 : !P {
pipeline.produce %p as %s37 : !P {
pipeline.produce %p as %s38 : !P {
pipeline.produce %p as %s39 : !P {
pipeline.produce %p as %s40 : !P {
pipeline.produce %p as %s41 : !P {
pipeline.produce %p as %s42 : !P {
pipeline.produce %p as %s43 : !P {
pipeline.produce %p as %s44 : !P {
pipeline.produce %p as %s45 : !P {
pipeline.produce %p as %s46 : !P {
pipeline.produce %p as %s47 : !P {
pipeline.produce %p as %s48 : !P {
pipeline.produce %p as %s49 : !P {
pipeline.produce %p as %s50 : !P {
pipeline.produce %p as %s51 : !P {
pipeline.produce %p as %s52 : !P {
pipeline.produce %p as %s53 : !P {
pipeline.produce %p as %s54 : !P {
pipeline.produce %p as %s55 : !P {
pipeline.produce %p as %s56 : !P {
pipeline.produce %p as %s57 : !P {
pipeline.produce %p as %s58 : !P {
pipeline.produce %p as %s59 : !P {
pipeline.produce %p as %s60 : !P {
pipeline.produce %p as %s61 : !P {
pipeline.produce %p as %s62 : !P {
pipeline.produce %p as %s63 : !P {
pipeline.produce %p as %s64 : !P {
pipeline.produce %p as %s65 : !P {
pipeline.produce %p as %s66 : !P {
pipeline.produce %p as %s67 : !P {
pipeline.produce %p as %s68 : !P {
pipeline.produce %p as %s69 : !P {
pipeline.produce %p as %s70 : !P {
pipeline.produce %p as %s71 : !P {
pipeline.produce %p as %s72 : !P {
pipeline.produce %p as %s73 : !P {
pipeline.produce %p as %s74 : !P {
pipeline.produce %p as %s75 : !P {
pipeline.produce %p as %s76 : !P {
pipeline.produce %p as %s77 : !P {
pipeline.produce %p as %s78 : !P {
pipeline.produce %p as %s79 : !P {
pipeline.produce %p as %s80 : !P {
pipeline.produce %p as %s81 : !P {
pipeline.produce %p as %s82 : !P {
pipeline.produce %p as %s83 : !P {
pipeline.produce %p as %s84 : !P {
pipeline.produce %p as %s85 : !P {
pipeline.produce %p as %s86 : !P {
pipeline.produce %p as %s87 : !P {
pipeline.produce %p as %s88 : !P {
pipeline.produce %p as %s89 : !P {
pipeline.produce %p as %s90 : !P {
pipeline.produce %p as %s91 : !P {
pipeline.produce %p as %s92 : !P {
pipeline.produce %p as %s93 : !P {
pipeline.produce %p as %s94 : !P {
pipeline.produce %p as %s95 : !P {
pipeline.produce %p as %s96 : !P {
pipeline.produce %p as %s97 : !P {
pipeline.produce %p as %s98 : !P {
pipeline.produce %p as %s99 : !P {
pipeline.produce %p as %s100 : !P {
pipeline.produce %p as %s101 : !P {
pipeline.produce %p as %s102 : !P {
pipeline.produce %p as %s103 : !P {
pipeline.produce %p as %s104 : !P {
pipeline.produce %p as %s105 : !P {
pipeline.produce %p as %s106 : !P {
pipeline.produce %p as %s107 : !P {
pipeline.produce %p as %s108 : !P {
pipeline.produce %p as %s109 : !P {
pipeline.produce %p as %s110 : !P {
pipeline.produce %p as %s111 : !P {
pipeline.produce %p as %s112 : !P {
pipeline.produce %p as %s113 : !P {
pipeline.produce %p as %s114 : !P {
pipeline.produce %p as %s115 : !P {
pipeline.produce %p as %s116 : !P {
pipeline.produce %p as %s117 : !P {
pipeline.produce %p as %s118 : !P {
pipeline.produce %p as %s119 : !P {
pipeline.produce %p as %s120 : !P {
pipeline.produce %p as %s121 : !P {
pipeline.produce %p as %s122 : !P {
pipeline.produce %p as %s123 : !P {
pipeline.produce %p as %s124 : !P {
pipeline.produce %p as %s125 : !P {
pipeline.produce %p as %s126 : !P {
pipeline.produce %p as %s127 : !P {
pipeline.produce %p as %s128 : !P {
pipeline.produce %p as %s129 : !P {
pipeline.produce %p as %s130 : !P {
pipeline.produce %p as %s131 : !P {
pipeline.produce %p as %s132 : !P {
pipeline.produce %p as %s133 : !P {
pipeline.produce %p as %s134 : !P {
pipeline.produce %p as %s135 : !P {
pipeline.produce %p as %s136 : !P {
pipeline.produce %p as %s137 : !P {
pipeline.produce %p as %s138 : !P {
pipeline.produce %p as %s139 : !P {
pipeline.produce %p as %s140 : !P {
pipeline.produce %p as %s141 : !P {
pipeline.produce %p as %s142 : !P {
pipeline.produce %p as %s143 : !P {
pipeline.produce %p as %s144 : !P {
pipeline.produce %p as %s145 : !P {
pipeline.produce %p as %s146 : !P {
pipeline.produce %p as %s147 : !P {
pipeline.produce %p as %s148 : !P {
pipeline.produce %p as %s149 : !P {
pipeline.produce %p as %s150 : !P {
pipeline.produce %p as %s151 : !P {
pipeline.produce %p as %s152 : !P {
pipeline.produce %p as %s153 : !P {
pipeline.produce %p as %s154 : !P {
pipeline.produce %p as %s155 : !P {
pipeline.produce %p as %s156 : !P {
pipeline.produce %p as %s157 : !P {
pipeline.produce %p as %s158 : !P {
pipeline.produce %p as %s159 : !P {
pipeline.produce %p as %s160 : !P {
pipeline.produce %p as %s161 : !P {
pipeline.produce %p as %s162 : !P {
pipeline.produce %p as %s163 : !P {
pipeline.produce %p as %s164 : !P {
pipeline.produce %p as %s165 : !P {
pipeline.produce %p as %s166 : !P {
pipeline.produce %p as %s167 : !P {
pipeline.produce %p as %s168 : !P {
pipeline.produce %p as %s169 : !P {
pipeline.produce %p as %s170 : !P {
pipeline.produce %p as %s171 : !P {
pipeline.produce %p as %s172 : !P {
pipeline.produce %p as %s173 : !P {
pipeline.produce %p as %s174 : !P {
pipeline.produce %p as %s175 : !P {
pipeline.produce %p as %s176 : !P {
pipeline.produce %p as %s177 : !P {
pipeline.produce %p as %s178 : !P {
pipeline.produce %p as %s179 : !P {
pipeline.produce %p as %s180 : !P {
pipeline.produce %p as %s181 : !P {
pipeline.produce %p as %s182 : !P {
pipeline.produce %p as %s183 : !P {
pipeline.produce %p as %s184 : !P {
pipeline.produce %p as %s185 : !P {
pipeline.produce %p as %s186 : !P {
pipeline.produce %p as %s187 : !P {
pipeline.produce %p as %s188 : !P {
pipeline.produce %p as %s189 : !P {
pipeline.produce %p as %s190 : !P {
pipeline.produce %p as %s191 : !P {
pipeline.produce %p as %s192 : !P {
pipeline.produce %p as %s193 : !P {
pipeline.produce %p as %s194 : !P {
pipeline.produce %p as %s195 : !P {
pipeline.produce %p as %s196 : !P {
pipeline.produce %p as %s197 : !P {
pipeline.produce %p as %s198 : !P {
pipeline.produce %p as %s199 : !P {
pipeline.produce %p as %s200 : !P {
pipeline.produce %p as %s201 : !P {
pipeline.produce %p as %s202 : !P {
pipeline.produce %p as %s203 : !P {
pipeline.produce %p as %s204 : !P {
pipeline.produce %p as %s205 : !P {
pipeline.produce %p as %s206 : !P {
pipeline.produce %p as %s207 : !P {
pipeline.produce %p as %s208 : !P {
pipeline.produce %p as %s209 : !P {
pipeline.produce %p as %s210 : !P {
pipeline.produce %p as %s211 : !P {
pipeline.produce %p as %s212 : !P {
pipeline.produce %p as %s213 : !P {
pipeline.produce %p as %s214 : !P {
pipeline.produce %p as %s215 : !P {
pipeline.produce %p as %s216 : !P {
pipeline.produce %p as %s217 : !P {
pipeline.produce %p as %s218 : !P {
pipeline.produce %p as %s219 : !P {
pipeline.produce %p as %s220 : !P {
pipeline.produce %p as %s221 : !P {
pipeline.produce %p as %s222 : !P {
pipeline.produce %p as %s223 : !P {
pipeline.produce %p as %s224 : !P {
pipeline.produce %p as %s225 : !P {
pipeline.produce %p as %s226 : !P {
pipeline.produce %p as %s227 : !P {
pipeline.produce %p as %s228 : !P {
pipeline.produce %p as %s229 : !P {
pipeline.produce %p as %s230 : !P {
pipeline.produce %p as %s231 : !P {
pipeline.produce %p as %s232 : !P {
pipeline.produce %p as %s233 : !P {
pipeline.produce %p as %s234 : !P {
pipeline.produce %p as %s235 : !P {
pipeline.produce %p as %s236 : !P {
pipeline.produce %p as %s237 : !P {
pipeline.produce %p as %s238 : !P {
pipeline.produce %p as %s239 : !P {
pipeline.produce %p as %s240 : !P {
pipeline.produce %p as %s241 : !P {
pipeline.produce %p as %s242 : !P {
pipeline.produce %p as %s243 : !P {
pipeline.produce %p as %s244 : !P {
pipeline.produce %p as %s245 : !P {
pipeline.produce %p as %s246 : !P {
pipeline.produce %p as %s247 : !P {
pipeline.produce %p as %s248 : !P {
pipeline.produce %p as %s249 : !P {
pipeline.produce %p as %s250 : !P {
pipeline.produce %p as %s251 : !P {
pipeline.produce %p as %s252 : !P {
pipeline.produce %p as %s253 : !P {
pipeline.produce %p as %s254 : !P {
pipeline.produce %p as %s255 : !P {
pipeline.produce %p as %s256 : !P {
pipeline.produce %p as %s257 : !P {
pipeline.produce %p as %s258 : !P {
pipeline.produce %p as %s259 : !P {
pipeline.produce %p as %s260 : !P {
pipeline.produce %p as %s261 : !P {
pipeline.produce %p as %s262 : !P {
pipeline.produce %p as %s263 : !P {
pipeline.produce %p as %s264 : !P {
pipeline.produce %p as %s265 : !P {
pipeline.produce %p as %s266 : !P {
pipeline.produce %p as %s267 : !P {
pipeline.produce %p as %s268 : !P {
pipeline.produce %p as %s269 : !P {
pipeline.produce %p as %s270 : !P {
pipeline.produce %p as %s271 : !P {
pipeline.produce %p as %s272 : !P {
pipeline.produce %p as %s273 : !P {
pipeline.produce %p as %s274 : !P {
pipeline.produce %p as %s275 : !P {
pipeline.produce %p as %s276 : !P {
pipeline.produce %p as %s277 : !P {
pipeline.produce %p as %s278 : !P {
pipeline.produce %p as %s279 : !P {
pipeline.produce %p as %s280 : !P {
pipeline.produce %p as %s281 : !P {
pipeline.produce %p as %s282 : !P {
pipeline.produce %p as %s283 : !P {
pipeline.produce %p as %s284 : !P {
pipeline.produce %p as %s285 : !P {
pipeline.produce %p as %s286 : !P {
pipeline.produce %p as %s287 : !P {
pipeline.produce %p as %s288 : !P {
pipeline.produce %p as %s289 : !P {
pipeline.produce %p as %s290 : !P {
pipeline.produce %p as %s291 : !P {
pipeline.produce %p as %s292 : !P {
pipeline.produce %p as %s293 : !P {
pipeline.produce %p as %s294 : !P {
pipeline.produce %p as %s295 : !P {
pipeline.produce %p as %s296 : !P {
pipeline.produce %p as %s297 : !P {
pipeline.produce %p as %s298 : !P {
pipeline.produce %p as %s299 : !P {
pipeline.produce %p as %s300 : !P {
pipeline.produce %p as %s301 : !P {
pipeline.produce %p as %s302 : !P {
pipeline.produce %p as %s303 : !P {
pipeline.produce %p as %s304 : !P {
pipeline.produce %p as %s305 : !P {
pipeline.produce %p as %s306 : !P {
pipeline.produce %p as %s307 : !P {
pipeline.produce %p as %s308 : !P {
pipeline.produce %p as %s309 : !P {
pipeline.produce %p as %s310 : !P {
pipeline.produce %p as %s311 : !P {
pipeline.produce %p as %s312 : !P {
pipeline.produce %p as %s313 : !P {
pipeline.produce %p as %s314 : !P {
pipeline.produce %p as %s315 : !P {
pipeline.produce %p as %s316 : !P {
pipeline.produce %p as %s317 : !P {
pipeline.produce %p as %s318 : !P {
pipeline.produce %p as %s319 : !P {
pipeline.produce %p as %s320 : !P {
pipeline.produce %p as %s321 : !P {
pipeline.produce %p as %s322 : !P {
pipeline.produce %p as %s323 : !P {
pipeline.produce %p as %s324 : !P {
pipeline.produce %p as %s325 : !P {
pipeline.produce %p as %s326 : !P {
pipeline.produce %p as %s327 : !P {
pipeline.produce %p as %s328 : !P {
pipeline.produce %p as %s329 : !P {
pipeline.produce %p as %s330 : !P {
pipeline.produce %p as %s331 : !P {
pipeline.produce %p as %s332 : !P {
pipeline.produce %p as %s333 : !P {
pipeline.produce %p as %s334 : !P {
pipeline.produce %p as %s335 : !P {
pipeline.produce %p as %s336 : !P {
pipeline.produce %p as %s337 : !P {
pipeline.produce %p as %s338 : !P {
pipeline.produce %p as %s339 : !P {
pipeline.produce %p as %s340 : !P {
pipeline.produce %p as %s341 : !P {
pipeline.produce %p as %s342 : !P {
pipeline.produce %p as %s343 : !P {
pipeline.produce %p as %s344 : !P {
pipeline.produce %p as %s345 : !P {
pipeline.produce %p as %s346 : !P {
pipeline.produce %p as %s347 : !P {
pipeline.produce %p as %s348 : !P {
pipeline.produce %p as %s349 : !P {
pipeline.produce %p as %s350 : !P {
pipeline.produce %p as %s351 : !P {
pipeline.produce %p as %s352 : !P {
pipeline.produce %p as %s353 : !P {
pipeline.produce %p as %s354 : !P {
pipeline.produce %p as %s355 : !P {
pipeline.produce %p as %s356 : !P {
pipeline.produce %p as %s357 : !P {
pipeline.produce %p as %s358 : !P {
pipeline.produce %p as %s359 : !P {
pipeline.produce %p as %s360 : !P {
pipeline.produce %p as %s361 : !P {
pipeline.produce %p as %s362 : !P {
pipeline.produce %p as %s363 : !P {
pipeline.produce %p as %s364 : !P {
pipeline.produce %p as %s365 : !P {
pipeline.produce %p as %s366 : !P {
pipeline.produce %p as %s367 : !P {
pipeline.produce %p as %s368 : !P {
pipeline.produce %p as %s369 : !P {
pipeline.produce %p as %s370 : !P {
pipeline.produce %p as %s371 : !P {
pipeline.produce %p as %s372 : !P {
pipeline.produce %p as %s373 : !P {
pipeline.produce %p as %s374 : !P {
pipeline.produce %p as %s375 : !P {
pipeline.produce %p as %s376 : !P {
pipeline.produce %p as %s377 : !P {
pipeline.produce %p as %s378 : !P {
pipeline.produce %p as %s379 : !P {
pipeline.produce %p as %s380 : !P {
pipeline.produce %p as %s381 : !P {
pipeline.produce %p as %s382 : !P {
pipeline.produce %p as %s383 : !P {
pipeline.produce %p as %s384 : !P {
pipeline.produce %p as %s385 : !P {
pipeline.produce %p as %s386 : !P {
pipeline.produce %p as %s387 : !P {
pipeline.produce %p as %s388 : !P {
pipeline.produce %p as %s389 : !P {
pipeline.produce %p as %s390 : !P {
pipeline.produce %p as %s391 : !P {
pipeline.produce %p as %s392 : !P {
pipeline.produce %p as %s393 : !P {
pipeline.produce %p as %s394 : !P {
pipeline.produce %p as %s395 : !P {
pipeline.produce %p as %s396 : !P {
pipeline.produce %p as %s397 : !P {
pipeline.produce %p as %s398 : !P {
pipeline.produce %p as %s399 : !P {
pipeline.produce %p as %s400 : !P {
pipeline.produce %p as %s401 : !P {
pipeline.produce %p as %s402 : !P {
pipeline.produce %p as %s403 : !P {
pipeline.produce %p as %s404 : !P {
pipeline.produce %p as %s405 : !P {
pipeline.produce %p as %s406 : !P {
pipeline.produce %p as %s407 : !P {
pipeline.produce %p as %s408 : !P {
pipeline.produce %p as %s409 : !P {
pipeline.produce %p as %s410 : !P {
pipeline.produce %p as %s411 : !P {
pipeline.produce %p as %s412 : !P {
pipeline.produce %p as %s413 : !P {
pipeline.produce %p as %s414 : !P {
pipeline.produce %p as %s415 : !P {
pipeline.produce %p as %s416 : !P {
pipeline.produce %p as %s417 : !P {
pipeline.produce %p as %s418 : !P {
pipeline.produce %p as %s419 : !P {
pipeline.produce %p as %s420 : !P {
pipeline.produce %p as %s421 : !P {
pipeline.produce %p as %s422 : !P {
pipeline.produce %p as %s423 : !P {
pipeline.produce %p as %s424 : !P {
pipeline.produce %p as %s425 : !P {
pipeline.produce %p as %s426 : !P {
pipeline.produce %p as %s427 : !P {
pipeline.produce %p as %s428 : !P {
pipeline.produce %p as %s429 : !P {
pipeline.produce %p as %s430 : !P {
pipeline.produce %p as %s431 : !P {
pipeline.produce %p as %s432 : !P {
pipeline.produce %p as %s433 : !P {
pipeline.produce %p as %s434 : !P {
pipeline.produce %p as %s435 : !P {
pipeline.produce %p as %s436 : !P {
pipeline.produce %p as %s437 : !P {
pipeline.produce %p as %s438 : !P {
pipeline.produce %p as %s439 : !P {
pipeline.produce %p as %s440 : !P {
pipeline.produce %p as %s441 : !P {
pipeline.produce %p as %s442 : !P {
pipeline.produce %p as %s443 : !P {
pipeline.produce %p as %s444 : !P {
pipeline.produce %p as %s445 : !P {
pipeline.produce %p as %s446 : !P {
pipeline.produce %p as %s447 : !P {
pipeline.produce %p as %s448 : !P {
pipeline.produce %p as %s449 : !P {
pipeline.produce %p as %s450 : !P {
pipeline.produce %p as %s451 : !P {
pipeline.produce %p as %s452 : !P {
pipeline.produce %p as %s453 : !P {
pipeline.produce %p as %s454 : !P {
pipeline.produce %p as %s455 : !P {
pipeline.produce %p as %s456 : !P {
pipeline.produce %p as %s457 : !P {
pipeline.produce %p as %s458 : !P {
pipeline.produce %p as %s459 : !P {
pipeline.produce %p as %s460 : !P {
pipeline.produce %p as %s461 : !P {
pipeline.produce %p as %s462 : !P {
pipeline.produce %p as %s463 : !P {
pipeline.produce %p as %s464 : !P {
pipeline.produce %p as %s465 : !P {
pipeline.produce %p as %s466 : !P {
pipeline.produce %p as %s467 : !P {
pipeline.produce %p as %s468 : !P {
pipeline.produce %p as %s469 : !P {
pipeline.produce %p as %s470 : !P {
pipeline.produce %p as %s471 : !P {
pipeline.produce %p as %s472 : !P {
pipeline.produce %p as %s473 : !P {
pipeline.produce %p as %s474 : !P {
pipeline.produce %p as %s475 : !P {
pipeline.produce %p as %s476 : !P {
pipeline.produce %p as %s477 : !P {
pipeline.produce %p as %s478 : !P {
pipeline.produce %p as %s479 : !P {
pipeline.produce %p as %s480 : !P {
pipeline.produce %p as %s481 : !P {
pipeline.produce %p as %s482 : !P {
pipeline.produce %p as %s483 : !P {
pipeline.produce %p as %s484 : !P {
pipeline.produce %p as %s485 : !P {
pipeline.produce %p as %s486 : !P {
pipeline.produce %p as %s487 : !P {
pipeline.produce %p as %s488 : !P {
pipeline.produce %p as %s489 : !P {
pipeline.produce %p as %s490 : !P {
pipeline.produce %p as %s491 : !P {
pipeline.produce %p as %s492 : !P {
pipeline.produce %p as %s493 : !P {
pipeline.produce %p as %s494 : !P {
pipeline.produce %p as %s495 : !P {
pipeline.produce %p as %s496 : !P {
pipeline.produce %p as %s497 : !P {
pipeline.produce %p as %s498 : !P {
pipeline.produce %p as %s499 : !P {
pipeline.produce %p as %s500 : !P {
pipeline.produce %p as %s501 : !P {
pipeline.produce %p as %s502 : !P {
pipeline.produce %p as %s503 : !P {
pipeline.produce %p as %s504 : !P {
pipeline.produce %p as %s505 : !P {
pipeline.produce %p as %s506 : !P {
pipeline.produce %p as %s507 : !P {
pipeline.produce %p as %s508 : !P {
pipeline.produce %p as %s509 : !P {
pipeline.produce %p as %s510 : !P {
pipeline.produce %p as %s511 : !P {
pipeline.produce %p as %s512 : !P {
pipeline.produce %p as %s513 : !P {
pipeline.produce %p as %s514 : !P {
pipeline.produce %p as %s515 : !P {
pipeline.produce %p as %s516 : !P {
pipeline.produce %p as %s517 : !P {
pipeline.produce %p as %s518 : !P {
pipeline.produce %p as %s519 : !P {
pipeline.produce %p as %s520 : !P {
pipeline.produce %p as %s521 : !P {
pipeline.produce %p as %s522 : !P {
pipeline.produce %p as %s523 : !P {
pipeline.produce %p as %s524 : !P {
pipeline.produce %p as %s525 : !P {
pipeline.produce %p as %s526 : !P {
pipeline.produce %p as %s527 : !P {
pipeline.produce %p as %s528 : !P {
pipeline.produce %p as %s529 : !P {
pipeline.produce %p as %s530 : !P {
pipeline.produce %p as %s531 : !P {
pipeline.produce %p as %s532 : !P {
pipeline.produce %p as %s533 : !P {
pipeline.produce %p as %s534 : !P {
pipeline.produce %p as %s535 : !P {
pipeline.produce %p as %s536 : !P {
pipeline.produce %p as %s537 : !P {
pipeline.produce %p as %s538 : !P {
pipeline.produce %p as %s539 : !P {
pipeline.produce %p as %s540 : !P {
pipeline.produce %p as %s541 : !P {
pipeline.produce %p as %s542 : !P {
pipeline.produce %p as %s543 : !P {
pipeline.produce %p as %s544 : !P {
pipeline.produce %p as %s545 : !P {
pipeline.produce %p as %s546 : !P {
pipeline.produce %p as %s547 : !P {
pipeline.produce %p as %s548 : !P {
pipeline.produce %p as %s549 : !P {
pipeline.produce %p as %s550 : !P {
pipeline.produce %p as %s551 : !P {
pipeline.produce %p as %s552 : !P {
pipeline.produce %p as %s553 : !P {
pipeline.produce %p as %s554 : !P {
pipeline.produce %p as %s555 : !P {
pipeline.produce %p as %s556 : !P {
pipeline.produce %p as %s557 : !P {
pipeline.produce %p as %s558 : !P {
pipeline.produce %p as %s559 : !P {
pipeline.produce %p as %s560 : !P {
pipeline.produce %p as %s561 : !P {
pipeline.produce %p as %s562 : !P {
pipeline.produce %p as %s563 : !P {
pipeline.produce %p as %s564 : !P {
pipeline.produce %p as %s565 : !P {
pipeline.produce %p as %s566 : !P {
pipeline.produce %p as %s567 : !P {
pipeline.produce %p as %s568 : !P {
pipeline.produce %p as %s569 : !P {
pipeline.produce %p as %s570 : !P {
pipeline.produce %p as %s571 : !P {
pipeline.produce %p as %s572 : !P {
pipeline.produce %p as %s573 : !P {
pipeline.produce %p as %s574 : !P {
pipeline.produce %p as %s575 : !P {
pipeline.produce %p as %s576 : !P {
pipeline.produce %p as %s577 : !P {
pipeline.produce %p as %s578 : !P {
pipeline.produce %p as %s579 : !P {
pipeline.produce %p as %s580 : !P {
pipeline.produce %p as %s581 : !P {
pipeline.produce %p as %s582 : !P {
pipeline.produce %p as %s583 : !P {
pipeline.produce %p as %s584 : !P {
pipeline.produce %p as %s585 : !P {
pipeline.produce %p as %s586 : !P {
pipeline.produce %p as %s587 : !P {
pipeline.produce %p as %s588 : !P {
pipeline.produce %p as %s589 : !P {
pipeline.produce %p as %s590 : !P {
pipeline.produce %p as %s591 : !P {
pipeline.produce %p as %s592 : !P {
pipeline.produce %p as %s593 : !P {
pipeline.produce %p as %s594 : !P {
pipeline.produce %p as %s595 : !P {
pipeline.produce %p as %s596 : !P {
pipeline.produce %p as %s597 : !P {
pipeline.produce %p as %s598 : !P {
pipeline.produce %p as %s599 : !P {
pipeline.produce %p as %s600 : !P {
pipeline.produce %p as %s601 : !P {
pipeline.produce %p as %s602 : !P {
pipeline.produce %p as %s603 : !P {
pipeline.produce %p as %s604 : !P {
pipeline.produce %p as %s605 : !P {
pipeline.produce %p as %s606 : !P {
pipeline.produce %p as %s607 : !P {
pipeline.produce %p as %s608 : !P {
pipeline.produce %p as %s609 : !P {
pipeline.produce %p as %s610 : !P {
pipeline.produce %p as %s611 : !P {
pipeline.produce %p as %s612 : !P {
pipeline.produce %p as %s613 : !P {
pipeline.produce %p as %s614 : !P {
pipeline.produce %p as %s615 : !P {
pipeline.produce %p as %s616 : !P {
pipeline.produce %p as %s617 : !P {
pipeline.produce %p as %s618 : !P {
pipeline.produce %p as %s619 : !P {
pipeline.produce %p as %s620 : !P {
pipeline.produce %p as %s621 : !P {
pipeline.produce %p as %s622 : !P {
pipeline.produce %p as %s623 : !P {
pipeline.produce %p as %s624 : !P {
pipeline.produce %p as %s625 : !P {
pipeline.produce %p as %s626 : !P {
pipeline.produce %p as %s627 : !P {
pipeline.produce %p as %s628 : !P {
pipeline.produce %p as %s629 : !P {
pipeline.produce %p as %s630 : !P {
pipeline.produce %p as %s631 : !P {
pipeline.produce %p as %s632 : !P {
pipeline.produce %p as %s633 : !P {
pipeline.produce %p as %s634 : !P {
pipeline.produce %p as %s635 : !P {
pipeline.produce %p as %s636 : !P {
pipeline.produce %p as %s637 : !P {
pipeline.produce %p as %s638 : !P {
pipeline.produce %p as %s639 : !P {
pipeline.produce %p as %s640 : !P {
pipeline.produce %p as %s641 : !P {
pipeline.produce %p as %s642 : !P {
pipeline.produce %p as %s643 : !P {
pipeline.produce %p as %s644 : !P {
pipeline.produce %p as %s645 : !P {
pipeline.produce %p as %s646 : !P {
pipeline.produce %p as %s647 : !P {
pipeline.produce %p as %s648 : !P {
pipeline.produce %p as %s649 : !P {
pipeline.produce %p as %s650 : !P {
pipeline.produce %p as %s651 : !P {
pipeline.produce %p as %s652 : !P {
pipeline.produce %p as %s653 : !P {
pipeline.produce %p as %s654 : !P {
pipeline.produce %p as %s655 : !P {
pipeline.produce %p as %s656 : !P {
pipeline.produce %p as %s657 : !P {
pipeline.produce %p as %s658 : !P {
pipeline.produce %p as %s659 : !P {
pipeline.produce %p as %s660 : !P {
pipeline.produce %p as %s661 : !P {
pipeline.produce %p as %s662 : !P {
pipeline.produce %p as %s663 : !P {
pipeline.produce %p as %s664 : !P {
pipeline.produce %p as %s665 : !P {
pipeline.produce %p as %s666 : !P {
pipeline.produce %p as %s667 : !P {
pipeline.produce %p as %s668 : !P {
pipeline.produce %p as %s669 : !P {
pipeline.produce %p as %s670 : !P {
pipeline.produce %p as %s671 : !P {
pipeline.produce %p as %s672 : !P {
pipeline.produce %p as %s673 : !P {
pipeline.produce %p as %s674 : !P {
pipeline.produce %p as %s675 : !P {
pipeline.produce %p as %s676 : !P {
pipeline.produce %p as %s677 : !P {
pipeline.produce %p as %s678 : !P {
pipeline.produce %p as %s679 : !P {
pipeline.produce %p as %s680 : !P {
pipeline.produce %p as %s681 : !P {
pipeline.produce %p as %s682 : !P {
pipeline.produce %p as %s683 : !P {
pipeline.produce %p as %s684 : !P {
pipeline.produce %p as %s685 : !P {
pipeline.produce %p as %s686 : !P {
pipeline.produce %p as %s687 : !P {
pipeline.produce %p as %s688 : !P {
pipeline.produce %p as %s689 : !P {
pipeline.produce %p as %s690 : !P {
pipeline.produce %p as %s691 : !P {
pipeline.produce %p as %s692 : !P {
pipeline.produce %p as %s693 : !P {
pipeline.produce %p as %s694 : !P {
pipeline.produce %p as %s695 : !P {
pipeline.produce %p as %s696 : !P {
pipeline.produce %p as %s697 : !P {
pipeline.produce %p as %s698 : !P {
pipeline.produce %p as %s699 : !P {
pipeline.produce %p as %s700 : !P {
pipeline.produce %p as %s701 : !P {
pipeline.produce %p as %s702 : !P {
pipeline.produce %p as %s703 : !P {
pipeline.produce %p as %s704 : !P {
pipeline.produce %p as %s705 : !P {
pipeline.produce %p as %s706 : !P {
pipeline.produce %p as %s707 : !P {
pipeline.produce %p as %s708 : !P {
pipeline.produce %p as %s709 : !P {
pipeline.produce %p as %s710 : !P {
pipeline.produce %p as %s711 : !P {
pipeline.produce %p as %s712 : !P {
pipeline.produce %p as %s713 : !P {
pipeline.produce %p as %s714 : !P {
pipeline.produce %p as %s715 : !P {
pipeline.produce %p as %s716 : !P {
pipeline.produce %p as %s717 : !P {
pipeline.produce %p as %s718 : !P {
pipeline.produce %p as %s719 : !P {
pipeline.produce %p as %s720 : !P {
pipeline.produce %p as %s721 : !P {
pipeline.produce %p as %s722 : !P {
pipeline.produce %p as %s723 : !P {
pipeline.produce %p as %s724 : !P {
pipeline.produce %p as %s725 : !P {
pipeline.produce %p as %s726 : !P {
pipeline.produce %p as %s727 : !P {
pipeline.produce %p as %s728 : !P {
pipeline.produce %p as %s729 : !P {
pipeline.produce %p as %s730 : !P {
pipeline.produce %p as %s731 : !P {
pipeline.produce %p as %s732 : !P {
pipeline.produce %p as %s733 : !P {
pipeline.produce %p as %s734 : !P {
pipeline.produce %p as %s735 : !P {
pipeline.produce %p as %s736 : !P {
pipeline.produce %p as %s737 : !P {
pipeline.produce %p as %s738 : !P {
pipeline.produce %p as %s739 : !P {
pipeline.produce %p as %s740 : !P {
pipeline.produce %p as %s741 : !P {
pipeline.produce %p as %s742 : !P {
pipeline.produce %p as %s743 : !P {
pipeline.produce %p as %s744 : !P {
pipeline.produce %p as %s745 : !P {
pipeline.produce %p as %s746 : !P {
pipeline.produce %p as %s747 : !P {
pipeline.produce %p as %s748 : !P {
pipeline.produce %p as %s749 : !P {
pipeline.produce %p as %s750 : !P {
pipeline.produce %p as %s751 : !P {
pipeline.produce %p as %s752 : !P {
pipeline.produce %p as %s753 : !P {
pipeline.produce %p as %s754 : !P {
pipeline.produce %p as %s755 : !P {
pipeline.produce %p as %s756 : !P {
pipeline.produce %p as %s757 : !P {
pipeline.produce %p as %s758 : !P {
pipeline.produce %p as %s759 : !P {
pipeline.produce %p as %s760 : !P {
pipeline.produce %p as %s761 : !P {
pipeline.produce %p as %s762 : !P {
pipeline.produce %p as %s763 : !P {
pipeline.produce %p as %s764 : !P {
pipeline.produce %p as %s765 : !P {
pipeline.produce %p as %s766 : !P {
pipeline.produce %p as %s767 : !P {
pipeline.produce %p as %s768 : !P {
pipeline.produce %p as %s769 : !P {
pipeline.produce %p as %s770 : !P {
pipeline.produce %p as %s771 : !P {
pipeline.produce %p as %s772 : !P {
pipeline.produce %p as %s773 : !P {
pipeline.produce %p as %s774 : !P {
pipeline.produce %p as %s775 : !P {
pipeline.produce %p as %s776 : !P {
pipeline.produce %p as %s777 : !P {
pipeline.produce %p as %s778 : !P {
pipeline.produce %p as %s779 : !P {
pipeline.produce %p as %s780 : !P {
pipeline.produce %p as %s781 : !P {
pipeline.produce %p as %s782 : !P {
pipeline.produce %p as %s783 : !P {
pipeline.produce %p as %s784 : !P {
pipeline.produce %p as %s785 : !P {
pipeline.produce %p as %s786 : !P {
pipeline.produce %p as %s787 : !P {
pipeline.produce %p as %s788 : !P {
pipeline.produce %p as %s789 : !P {
pipeline.produce %p as %s790 : !P {
pipeline.produce %p as %s791 : !P {
pipeline.produce %p as %s792 : !P {
pipeline.produce %p as %s793 : !P {
pipeline.produce %p as %s794 : !P {
pipeline.produce %p as %s795 : !P {
pipeline.produce %p as %s796 : !P {
pipeline.produce %p as %s797 : !P {
pipeline.produce %p as %s798 : !P {
pipeline.produce %p as %s799 : !P {
pipeline.produce %p as %s800 : !P {
pipeline.produce %p as %s801 : !P {
pipeline.produce %p as %s802 : !P {
pipeline.produce %p as %s803 : !P {
pipeline.produce %p as %s804 : !P {
pipeline.produce %p as %s805 : !P {
pipeline.produce %p as %s806 : !P {
pipeline.produce %p as %s807 : !P {
pipeline.produce %p as %s808 : !P {
pipeline.produce %p as %s809 : !P {
pipeline.produce %p as %s810 : !P {
pipeline.produce %p as %s811 : !P {
pipeline.produce %p as %s812 : !P {
pipeline.produce %p as %s813 : !P {
pipeline.produce %p as %s814 : !P {
pipeline.produce %p as %s815 : !P {
pipeline.produce %p as %s816 : !P {
pipeline.produce %p as %s817 : !P {
pipeline.produce %p as %s818 : !P {
pipeline.produce %p as %s819 : !P {
pipeline.produce %p as %s820 : !P {
pipeline.produce %p as %s821 : !P {
pipeline.produce %p as %s822 : !P {
pipeline.produce %p as %s823 : !P {
pipeline.produce %p as %s824 : !P {
pipeline.produce %p as %s825 : !P {
pipeline.produce %p as %s826 : !P {
pipeline.produce %p as %s827 : !P {
pipeline.produce %p as %s828 : !P {
pipeline.produce %p as %s829 : !P {
pipeline.produce %p as %s830 : !P {
pipeline.produce %p as %s831 : !P {
pipeline.produce %p as %s832 : !P {
pipeline.produce %p as %s833 : !P {
pipeline.produce %p as %s834 : !P {
pipeline.produce %p as %s835 : !P {
pipeline.produce %p as %s836 : !P {
pipeline.produce %p as %s837 : !P {
pipeline.produce %p as %s838 : !P {
pipeline.produce %p as %s839 : !P {
pipeline.produce %p as %s840 : !P {
pipeline.produce %p as %s841 : !P {
pipeline.produce %p as %s842 : !P {
pipeline.produce %p as %s843 : !P {
pipeline.produce %p as %s844 : !P {
pipeline.produce %p as %s845 : !P {
pipeline.produce %p as %s846 : !P {
pipeline.produce %p as %s847 : !P {
pipeline.produce %p as %s848 : !P {
pipeline.produce %p as %s849 : !P {
pipeline.produce %p as %s850 : !P {
pipeline.produce %p as %s851 : !P {
pipeline.produce %p as %s852 : !P {
pipeline.produce %p as %s853 : !P {
pipeline.produce %p as %s854 : !P {
pipeline.produce %p as %s855 : !P {
pipeline.produce %p as %s856 : !P {
pipeline.produce %p as %s857 : !P {
pipeline.produce %p as %s858 : !P {
pipeline.produce %p as %s859 : !P {
pipeline.produce %p as %s860 : !P {
pipeline.produce %p as %s861 : !P {
pipeline.produce %p as %s862 : !P {
pipeline.produce %p as %s863 : !P {
pipeline.produce %p as %s864 : !P {
pipeline.produce %p as %s865 : !P {
pipeline.produce %p as %s866 : !P {
pipeline.produce %p as %s867 : !P {
pipeline.produce %p as %s868 : !P {
pipeline.produce %p as %s869 : !P {
pipeline.produce %p as %s870 : !P {
pipeline.produce %p as %s871 : !P {
pipeline.produce %p as %s872 : !P {
pipeline.produce %p as %s873 : !P {
pipeline.produce %p as %s874 : !P {
pipeline.produce %p as %s875 : !P {
pipeline.produce %p as %s876 : !P {
pipeline.produce %p as %s877 : !P {
pipeline.produce %p as %s878 : !P {
pipeline.produce %p as %s879 : !P {
pipeline.produce %p as %s880 : !P {
pipeline.produce %p as %s881 : !P {
pipeline.produce %p as %s882 : !P {
pipeline.produce %p as %s883 : !P {
pipeline.produce %p as %s884 : !P {
pipeline.produce %p as %s885 : !P {
pipeline.produce %p as %s886 : !P {
pipeline.produce %p as %s887 : !P {
pipeline.produce %p as %s888 : !P {
pipeline.produce %p as %s889 : !P {
pipeline.produce %p as %s890 : !P {
pipeline.produce %p as %s891 : !P {
pipeline.produce %p as %s892 : !P {
pipeline.produce %p as %s893 : !P {
pipeline.produce %p as %s894 : !P {
pipeline.produce %p as %s895 : !P {
pipeline.produce %p as %s896 : !P {
pipeline.produce %p as %s897 : !P {
pipeline.produce %p as %s898 : !P {
pipeline.produce %p as %s899 : !P {
pipeline.produce %p as %s900 : !P {
pipeline.produce %p as %s901 : !P {
pipeline.produce %p as %s902 : !P {
pipeline.produce %p as %s903 : !P {
pipeline.produce %p as %s904 : !P {
pipeline.produce %p as %s905 : !P {
pipeline.produce %p as %s906 : !P {
pipeline.produce %p as %s907 : !P {
pipeline.produce %p as %s908 : !P {
pipeline.produce %p as %s909 : !P {
pipeline.produce %p as %s910 : !P {
pipeline.produce %p as %s911 : !P {
pipeline.produce %p as %s912 : !P {
pipeline.produce %p as %s913 : !P {
pipeline.produce %p as %s914 : !P {
pipeline.produce %p as %s915 : !P {
pipeline.produce %p as %s916 : !P {
pipeline.produce %p as %s917 : !P {
pipeline.produce %p as %s918 : !P {
pipeline.produce %p as %s919 : !P {
pipeline.produce %p as %s920 : !P {
pipeline.produce %p as %s921 : !P {
pipeline.produce %p as %s922 : !P {
pipeline.produce %p as %s923 : !P {
pipeline.produce %p as %s924 : !P {
pipeline.produce %p as %s925 : !P {
pipeline.produce %p as %s926 : !P {
pipeline.produce %p as %s927 : !P {
pipeline.produce %p as %s928 : !P {
pipeline.produce %p as %s929 : !P {
pipeline.produce %p as %s930 : !P {
pipeline.produce %p as %s931 : !P {
pipeline.produce %p as %s932 : !P {
pipeline.produce %p as %s933 : !P {
pipeline.produce %p as %s934 : !P {
pipeline.produce %p as %s935 : !P {
pipeline.produce %p as %s936 : !P {
pipeline.produce %p as %s937 : !P {
pipeline.produce %p as %s938 : !P {
pipeline.produce %p as %s939 : !P {
pipeline.produce %p as %s940 : !P {
pipeline.produce %p as %s941 : !P {
pipeline.produce %p as %s942 : !P {
pipeline.produce %p as %s943 : !P {
pipeline.produce %p as %s944 : !P {
pipeline.produce %p as %s945 : !P {
pipeline.produce %p as %s946 : !P {
pipeline.produce %p as %s947 : !P {
pipeline.produce %p as %s948 : !P {
pipeline.produce %p as %s949 : !P {
pipeline.produce %p as %s950 : !P {
pipeline.produce %p as %s951 : !P {
pipeline.produce %p as %s952 : !P {
pipeline.produce %p as %s953 : !P {
pipeline.produce %p as %s954 : !P {
pipeline.produce %p as %s955 : !P {
pipeline.produce %p as %s956 : !P {
pipeline.produce %p as %s957 : !P {
pipeline.produce %p as %s958 : !P {
pipeline.produce %p as %s959 : !P {
pipeline.produce %p as %s960 : !P {
pipeline.produce %p as %s961 : !P {
pipeline.produce %p as %s962 : !P {
pipeline.produce %p as %s963 : !P {
pipeline.produce %p as %s964 : !P {
pipeline.produce %p as %s965 : !P {
pipeline.produce %p as %s966 : !P {
pipeline.produce %p as %s967 : !P {
pipeline.produce %p as %s968 : !P {
pipeline.produce %p as %s969 : !P {
pipeline.produce %p as %s970 : !P {
pipeline.produce %p as %s971 : !P {
pipeline.produce %p as %s972 : !P {
pipeline.produce %p as %s973 : !P {
pipeline.produce %p as %s974 : !P {
pipeline.produce %p as %s975 : !P {
pipeline.produce %p as %s976 : !P {
pipeline.produce %p as %s977 : !P {
pipeline.produce %p as %s978 : !P {
pipeline.produce %p as %s979 : !P {
pipeline.produce %p as %s980 : !P {
pipeline.produce %p as %s981 : !P {
pipeline.produce %p as %s982 : !P {
pipeline.produce %p as %s983 : !P {
pipeline.produce %p as %s984 : !P {
pipeline.produce %p as %s985 : !P {
pipeline.produce %p as %s986 : !P {
pipeline.produce %p as %s987 : !P {
pipeline.produce %p as %s988 : !P {
pipeline.produce %p as %s989 : !P {
pipeline.produce %p as %s990 : !P {
pipeline.produce %p as %s991 : !P {
pipeline.produce %p as %s992 : !P {
pipeline.produce %p as %s993 : !P {
pipeline.produce %p as %s994 : !P {
pipeline.produce %p as %s995 : !P {
pipeline.produce %p as %s996 : !P {
pipeline.produce %p as %s997 : !P {
pipeline.produce %p as %s998 : !P {
pipeline.produce %p as %s999 : !P {
pipeline.produce %p as %s1000 : !P {
pipeline.produce %p as %s1001 : !P {
pipeline.produce %p as %s1002 : !P {
pipeline.produce %p as %s1003 : !P {
pipeline.produce %p as %s1004 : !P {
pipeline.produce %p as %s1005 : !P {
pipeline.produce %p as %s1006 : !P {
pipeline.produce %p as %s1007 : !P {
pipeline.produce %p as %s1008 : !P {
pipeline.produce %p as %s1009 : !P {
pipeline.produce %p as %s1010 : !P {
pipeline.produce %p as %s1011 : !P {
pipeline.produce %p as %s1012 : !P {
pipeline.produce %p as %s1013 : !P {
pipeline.produce %p as %s1014 : !P {
pipeline.produce %p as %s1015 : !P {
pipeline.produce %p as %s1016 : !P {
pipeline.produce %p as %s1017 : !P {
pipeline.produce %p as %s1018 : !P {
pipeline.produce %p as %s1019 : !P {
pipeline.produce %p as %s1020 : !P {
pipeline.produce %p as %s1021 : !P {
pipeline.produce %p as %s1022 : !P {
pipeline.produce %p as %s1023 : !P {
pipeline.produce %p as %s1024 : !P {
pipeline.produce %p as %s1025 : !P {
pipeline.produce %p as %s1026 : !P {
pipeline.produce %p as %s1027 : !P {
pipeline.produce %p as %s1028 : !P {
pipeline.produce %p as %s1029 : !P {
pipeline.produce %p as %s1030 : !P {
pipeline.produce %p as %s1031 : !P {
pipeline.produce %p as %s1032 : !P {
pipeline.produce %p as %s1033 : !P {
pipeline.produce %p as %s1034 : !P {
pipeline.produce %p as %s1035 : !P {
pipeline.produce %p as %s1036 : !P {
pipeline.produce %p as %s1037 : !P {
pipeline.produce %p as %s1038 : !P {
pipeline.produce %p as %s1039 : !P {
pipeline.produce %p as %s1040 : !P {
pipeline.produce %p as %s1041 : !P {
pipeline.produce %p as %s1042 : !P {
pipeline.produce %p as %s1043 : !P {
pipeline.produce %p as %s1044 : !P {
pipeline.produce %p as %s1045 : !P {
pipeline.produce %p as %s1046 : !P {
pipeline.produce %p as %s1047 : !P {
pipeline.produce %p as %s1048 : !P {
pipeline.produce %p as %s1049 : !P {
pipeline.produce %p as %s1050 : !P {
pipeline.produce %p as %s1051 : !P {
pipeline.produce %p as %s1052 : !P {
pipeline.produce %p as %s1053 : !P {
pipeline.produce %p as %s1054 : !P {
pipeline.produce %p as %s1055 : !P {
pipeline.produce %p as %s1056 : !P {
pipeline.produce %p as %s1057 : !P {
pipeline.produce %p as %s1058 : !P {
pipeline.produce %p as %s1059 : !P {
pipeline.produce %p as %s1060 : !P {
pipeline.produce %p as %s1061 : !P {
pipeline.produce %p as %s1062 : !P {
pipeline.produce %p as %s1063 : !P {
pipeline.produce %p as %s1064 : !P {
pipeline.produce %p as %s1065 : !P {
pipeline.produce %p as %s1066 : !P {
pipeline.produce %p as %s1067 : !P {
pipeline.produce %p as %s1068 : !P {
pipeline.produce %p as %s1069 : !P {
pipeline.produce %p as %s1070 : !P {
pipeline.produce %p as %s1071 : !P {
pipeline.produce %p as %s1072 : !P {
pipeline.produce %p as %s1073 : !P {
pipeline.produce %p as %s1074 : !P {
pipeline.produce %p as %s1075 : !P {
pipeline.produce %p as %s1076 : !P {
pipeline.produce %p as %s1077 : !P {
pipeline.produce %p as %s1078 : !P {
pipeline.produce %p as %s1079 : !P {
pipeline.produce %p as %s1080 : !P {
pipeline.produce %p as %s1081 : !P {
pipeline.produce %p as %s1082 : !P {
pipeline.produce %p as %s1083 : !P {
pipeline.produce %p as %s1084 : !P {
pipeline.produce %p as %s1085 : !P {
pipeline.produce %p as %s1086 : !P {
pipeline.produce %p as %s1087 : !P {
pipeline.produce %p as %s1088 : !P {
pipeline.produce %p as %s1089 : !P {
pipeline.produce %p as %s1090 : !P {
pipeline.produce %p as %s1091 : !P {
pipeline.produce %p as %s1092 : !P {
pipeline.produce %p as %s1093 : !P {
pipeline.produce %p as %s1094 : !P {
pipeline.produce %p as %s1095 : !P {
pipeline.produce %p as %s1096 : !P {
pipeline.produce %p as %s1097 : !P {
pipeline.produce %p as %s1098 : !P {
pipeline.produce %p as %s1099 : !P {
pipeline.produce %p as %s1100 : !P {
pipeline.produce %p as %s1101 : !P {
pipeline.produce %p as %s1102 : !P {
pipeline.produce %p as %s1103 : !P {
pipeline.produce %p as %s1104 : !P {
pipeline.produce %p as %s1105 : !P {
pipeline.produce %p as %s1106 : !P {
pipeline.produce %p as %s1107 : !P {
pipeline.produce %p as %s1108 : !P {
pipeline.produce %p as %s1109 : !P {
pipeline.produce %p as %s1110 : !P {
pipeline.produce %p as %s1111 : !P {
pipeline.produce %p as %s1112 : !P {
pipeline.produce %p as %s1113 : !P {
pipeline.produce %p as %s1114 : !P {
pipeline.produce %p as %s1115 : !P {
pipeline.produce %p as %s1116 : !P {
pipeline.produce %p as %s1117 : !P {
pipeline.produce %p as %s1118 : !P {
pipeline.produce %p as %s1119 : !P {
pipeline.produce %p as %s1120 : !P {
pipeline.produce %p as %s1121 : !P {
pipeline.produce %p as %s1122 : !P {
pipeline.produce %p as %s1123 : !P {
pipeline.produce %p as %s1124 : !P {
pipeline.produce %p as %s1125 : !P {
pipeline.produce %p as %s1126 : !P {
pipeline.produce %p as %s1127 : !P {
pipeline.produce %p as %s1128 : !P {
pipeline.produce %p as %s1129 : !P {
pipeline.produce %p as %s1130 : !P {
pipeline.produce %p as %s1131 : !P {
pipeline.produce %p as %s1132 : !P {
pipeline.produce %p as %s1133 : !P {
pipeline.produce %p as %s1134 : !P {
pipeline.produce %p as %s1135 : !P {
pipeline.produce %p as %s1136 : !P {
pipeline.produce %p as %s1137 : !P {
pipeline.produce %p as %s1138 : !P {
pipeline.produce %p as %s1139 : !P {
pipeline.produce %p as %s1140 : !P {
pipeline.produce %p as %s1141 : !P {
pipeline.produce %p as %s1142 : !P {
pipeline.produce %p as %s1143 : !P {
pipeline.produce %p as %s1144 : !P {
pipeline.produce %p as %s1145 : !P {
pipeline.produce %p as %s1146 : !P {
pipeline.produce %p as %s1147 : !P {
pipeline.produce %p as %s1148 : !P {
pipeline.produce %p as %s1149 : !P {
pipeline.produce %p as %s1150 : !P {
pipeline.produce %p as %s1151 : !P {
pipeline.produce %p as %s1152 : !P {
pipeline.produce %p as %s1153 : !P {
pipeline.produce %p as %s1154 : !P {
pipeline.produce %p as %s1155 : !P {
pipeline.produce %p as %s1156 : !P {
pipeline.produce %p as %s1157 : !P {
pipeline.produce %p as %s1158 : !P {
pipeline.produce %p as %s1159 : !P {
pipeline.produce %p as %s1160 : !P {
pipeline.produce %p as %s1161 : !P {
pipeline.produce %p as %s1162 : !P {
pipeline.produce %p as %s1163 : !P {
pipeline.produce %p as %s1164 : !P {
pipeline.produce %p as %s1165 : !P {
pipeline.produce %p as %s1166 : !P {
pipeline.produce %p as %s1167 : !P {
pipeline.produce %p as %s1168 : !P {
pipeline.produce %p as %s1169 : !P {
pipeline.produce %p as %s1170 : !P {
pipeline.produce %p as %s1171 : !P {
pipeline.produce %p as %s1172 : !P {
pipeline.produce %p as %s1173 : !P {
pipeline.produce %p as %s1174 : !P {
pipeline.produce %p as %s1175 : !P {
pipeline.produce %p as %s1176 : !P {
pipeline.produce %p as %s1177 : !P {
pipeline.produce %p as %s1178 : !P {
pipeline.produce %p as %s1179 : !P {
pipeline.produce %p as %s1180 : !P {
pipeline.produce %p as %s1181 : !P {
pipeline.produce %p as %s1182 : !P {
pipeline.produce %p as %s1183 : !P {
pipeline.produce %p as %s1184 : !P {
pipeline.produce %p as %s1185 : !P {
pipeline.produce %p as %s1186 : !P {
pipeline.produce %p as %s1187 : !P {
pipeline.produce %p as %s1188 : !P {
pipeline.produce %p as %s1189 : !P {
pipeline.produce %p as %s1190 : !P {
pipeline.produce %p as %s1191 : !P {
pipeline.produce %p as %s1192 : !P {
pipeline.produce %p as %s1193 : !P {
pipeline.produce %p as %s1194 : !P {
pipeline.produce %p as %s1195 : !P {
pipeline.produce %p as %s1196 : !P {
pipeline.produce %p as %s1197 : !P {
pipeline.produce %p as %s1198 : !P {
pipeline.produce %p as %s1199 : !P {
pipeline.produce %p as %s1200 : !P {
pipeline.produce %p as %s1201 : !P {
pipeline.produce %p as %s1202 : !P {
pipeline.produce %p as %s1203 : !P {
pipeline.produce %p as %s1204 : !P {
pipeline.produce %p as %s1205 : !P {
pipeline.produce %p as %s1206 : !P {
pipeline.produce %p as %s1207 : !P {
pipeline.produce %p as %s1208 : !P {
pipeline.produce %p as %s1209 : !P {
pipeline.produce %p as %s1210 : !P {
pipeline.produce %p as %s1211 : !P {
pipeline.produce %p as %s1212 : !P {
pipeline.produce %p as %s1213 : !P {
pipeline.produce %p as %s1214 : !P {
pipeline.produce %p as %s1215 : !P {
pipeline.produce %p as %s1216 : !P {
pipeline.produce %p as %s1217 : !P {
pipeline.produce %p as %s1218 : !P {
pipeline.produce %p as %s1219 : !P {
pipeline.produce %p as %s1220 : !P {
pipeline.produce %p as %s1221 : !P {
pipeline.produce %p as %s1222 : !P {
pipeline.produce %p as %s1223 : !P {
pipeline.produce %p as %s1224 : !P {
pipeline.produce %p as %s1225 : !P {
pipeline.produce %p as %s1226 : !P {
pipeline.produce %p as %s1227 : !P {
pipeline.produce %p as %s1228 : !P {
pipeline.produce %p as %s1229 : !P {
pipeline.produce %p as %s1230 : !P {
pipeline.produce %p as %s1231 : !P {
pipeline.produce %p as %s1232 : !P {
pipeline.produce %p as %s1233 : !P {
pipeline.produce %p as %s1234 : !P {
pipeline.produce %p as %s1235 : !P {
pipeline.produce %p as %s1236 : !P {
pipeline.produce %p as %s1237 : !P {
pipeline.produce %p as %s1238 : !P {
pipeline.produce %p as %s1239 : !P {
pipeline.produce %p as %s1240 : !P {
pipeline.produce %p as %s1241 : !P {
pipeline.produce %p as %s1242 : !P {
pipeline.produce %p as %s1243 : !P {
pipeline.produce %p as %s1244 : !P {
pipeline.produce %p as %s1245 : !P {
pipeline.produce %p as %s1246 : !P {
pipeline.produce %p as %s1247 : !P {
pipeline.produce %p as %s1248 : !P {
pipeline.produce %p as %s1249 : !P {
pipeline.produce %p as %s1250 : !P {
pipeline.produce %p as %s1251 : !P {
pipeline.produce %p as %s1252 : !P {
pipeline.produce %p as %s1253 : !P {
pipeline.produce %p as %s1254 : !P {
pipeline.produce %p as %s1255 : !P {
pipeline.produce %p as %s1256 : !P {
pipeline.produce %p as %s1257 : !P {
pipeline.produce %p as %s1258 : !P {
pipeline.produce %p as %s1259 : !P {
pipeline.produce %p as %s1260 : !P {
pipeline.produce %p as %s1261 : !P {
pipeline.produce %p as %s1262 : !P {
pipeline.produce %p as %s1263 : !P {
pipeline.produce %p as %s1264 : !P {
pipeline.produce %p as %s1265 : !P {
pipeline.produce %p as %s1266 : !P {
pipeline.produce %p as %s1267 : !P {
pipeline.produce %p as %s1268 : !P {
pipeline.produce %p as %s1269 : !P {
pipeline.produce %p as %s1270 : !P {
pipeline.produce %p as %s1271 : !P {
pipeline.produce %p as %s1272 : !P {
pipeline.produce %p as %s1273 : !P {
pipeline.produce %p as %s1274 : !P {
pipeline.produce %p as %s1275 : !P {
pipeline.produce %p as %s1276 : !P {
pipeline.produce %p as %s1277 : !P {
pipeline.produce %p as %s1278 : !P {
pipeline.produce %p as %s1279 : !P {
pipeline.produce %p as %s1280 : !P {
pipeline.produce %p as %s1281 : !P {
pipeline.produce %p as %s1282 : !P {
pipeline.produce %p as %s1283 : !P {
pipeline.produce %p as %s1284 : !P {
pipeline.produce %p as %s1285 : !P {
pipeline.produce %p as %s1286 : !P {
pipeline.produce %p as %s1287 : !P {
pipeline.produce %p as %s1288 : !P {
pipeline.produce %p as %s1289 : !P {
pipeline.produce %p as %s1290 : !P {
pipeline.produce %p as %s1291 : !P {
pipeline.produce %p as %s1292 : !P {
pipeline.produce %p as %s1293 : !P {
pipeline.produce %p as %s1294 : !P {
pipeline.produce %p as %s1295 : !P {
pipeline.produce %p as %s1296 : !P {
pipeline.produce %p as %s1297 : !P {
pipeline.produce %p as %s1298 : !P {
pipeline.produce %p as %s1299 : !P {
pipeline.produce %p as %s1300 : !P {
pipeline.produce %p as %s1301 : !P {
pipeline.produce %p as %s1302 : !P {
pipeline.produce %p as %s1303 : !P {
pipeline.produce %p as %s1304 : !P {
pipeline.produce %p as %s1305 : !P {
pipeline.produce %p as %s1306 : !P {
pipeline.produce %p as %s1307 : !P {
pipeline.produce %p as %s1308 : !P {
pipeline.produce %p as %s1309 : !P {
pipeline.produce %p as %s1310 : !P {
pipeline.produce %p as %s1311 : !P {
pipeline.produce %p as %s1312 : !P {
pipeline.produce %p as %s1313 : !P {
pipeline.produce %p as %s1314 : !P {
pipeline.produce %p as %s1315 : !P {
pipeline.produce %p as %s1316 : !P {
pipeline.produce %p as %s1317 : !P {
pipeline.produce %p as %s1318 : !P {
pipeline.produce %p as %s1319 : !P {
pipeline.produce %p as %s1320 : !P {
pipeline.produce %p as %s1321 : !P {
pipeline.produce %p as %s1322 : !P {
pipeline.produce %p as %s1323 : !P {
pipeline.produce %p as %s1324 : !P {
pipeline.produce %p as %s1325 : !P {
pipeline.produce %p as %s1326 : !P {
pipeline.produce %p as %s1327 : !P {
pipeline.produce %p as %s1328 : !P {
pipeline.produce %p as %s1329 : !P {
pipeline.produce %p as %s1330 : !P {
pipeline.produce %p as %s1331 : !P {
pipeline.produce %p as %s1332 : !P {
pipeline.produce %p as %s1333 : !P {
pipeline.produce %p as %s1334 : !P {
pipeline.produce %p as %s1335 : !P {
pipeline.produce %p as %s1336 : !P {
pipeline.produce %p as %s1337 : !P {
pipeline.produce %p as %s1338 : !P {
pipeline.produce %p as %s1339 : !P {
pipeline.produce %p as %s1340 : !P {
pipeline.produce %p as %s1341 : !P {
pipeline.produce %p as %s1342 : !P {
pipeline.produce %p as %s1343 : !P {
pipeline.produce %p as %s1344 : !P {
pipeline.produce %p as %s1345 : !P {
pipeline.produce %p as %s1346 : !P {
pipeline.produce %p as %s1347 : !P {
pipeline.produce %p as %s1348 : !P {
pipeline.produce %p as %s1349 : !P {
pipeline.produce %p as %s1350 : !P {
pipeline.produce %p as %s1351 : !P {
pipeline.produce %p as %s1352 : !P {
pipeline.produce %p as %s1353 : !P {
pipeline.produce %p as %s1354 : !P {
pipeline.produce %p as %s1355 : !P {
pipeline.produce %p as %s1356 : !P {
pipeline.produce %p as %s1357 : !P {
pipeline.produce %p as %s1358 : !P {
pipeline.produce %p as %s1359 : !P {
pipeline.produce %p as %s1360 : !P {
pipeline.produce %p as %s1361 : !P {
pipeline.produce %p as %s1362 : !P {
pipeline.produce %p as %s1363 : !P {
pipeline.produce %p as %s1364 : !P {
pipeline.produce %p as %s1365 : !P {
pipeline.produce %p as %s1366 : !P {
pipeline.produce %p as %s1367 : !P {
pipeline.produce %p as %s1368 : !P {
pipeline.produce %p as %s1369 : !P {
pipeline.produce %p as %s1370 : !P {
pipeline.produce %p as %s1371 : !P {
pipeline.produce %p as %s1372 : !P {
pipeline.produce %p as %s1373 : !P {
pipeline.produce %p as %s1374 : !P {
pipeline.produce %p as %s1375 : !P {
pipeline.produce %p as %s1376 : !P {
pipeline.produce %p as %s1377 : !P {
pipeline.produce %p as %s1378 : !P {
pipeline.produce %p as %s1379 : !P {
pipeline.produce %p as %s1380 : !P {
pipeline.produce %p as %s1381 : !P {
pipeline.produce %p as %s1382 : !P {
pipeline.produce %p as %s1383 : !P {
pipeline.produce %p as %s1384 : !P {
pipeline.produce %p as %s1385 : !P {
pipeline.produce %p as %s1386 : !P {
pipeline.produce %p as %s1387 : !P {
pipeline.produce %p as %s1388 : !P {
pipeline.produce %p as %s1389 : !P {
pipeline.produce %p as %s1390 : !P {
pipeline.produce %p as %s1391 : !P {
pipeline.produce %p as %s1392 : !P {
pipeline.produce %p as %s1393 : !P {
pipeline.produce %p as %s1394 : !P {
pipeline.produce %p as %s1395 : !P {
pipeline.produce %p as %s1396 : !P {
pipeline.produce %p as %s1397 : !P {
pipeline.produce %p as %s1398 : !P {
pipeline.produce %p as %s1399 : !P {
pipeline.produce %p as %s1400 : !P {
pipeline.produce %p as %s1401 : !P {
pipeline.produce %p as %s1402 : !P {
pipeline.produce %p as %s1403 : !P {
pipeline.produce %p as %s1404 : !P {
pipeline.produce %p as %s1405 : !P {
pipeline.produce %p as %s1406 : !P {
pipeline.produce %p as %s1407 : !P {
pipeline.produce %p as %s1408 : !P {
pipeline.produce %p as %s1409 : !P {
pipeline.produce %p as %s1410 : !P {
pipeline.produce %p as %s1411 : !P {
pipeline.produce %p as %s1412 : !P {
pipeline.produce %p as %s1413 : !P {
pipeline.produce %p as %s1414 : !P {
pipeline.produce %p as %s1415 : !P {
pipeline.produce %p as %s1416 : !P {
pipeline.produce %p as %s1417 : !P {
pipeline.produce %p as %s1418 : !P {
pipeline.produce %p as %s1419 : !P {
pipeline.produce %p as %s1420 : !P {
pipeline.produce %p as %s1421 : !P {
pipeline.produce %p as %s1422 : !P {
pipeline.produce %p as %s1423 : !P {
pipeline.produce %p as %s1424 : !P {
pipeline.produce %p as %s1425 : !P {
pipeline.produce %p as %s1426 : !P {
pipeline.produce %p as %s1427 : !P {
pipeline.produce %p as %s1428 : !P {
pipeline.produce %p as %s1429 : !P {
pipeline.produce %p as %s1430 : !P {
pipeline.produce %p as %s1431 : !P {
pipeline.produce %p as %s1432 : !P {
pipeline.produce %p as %s1433 : !P {
pipeline.produce %p as %s1434 : !P {
pipeline.produce %p as %s1435 : !P {
pipeline.produce %p as %s1436 : !P {
pipeline.produce %p as %s1437 : !P {
pipeline.produce %p as %s1438 : !P {
pipeline.produce %p as %s1439 : !P {
pipeline.produce %p as %s1440 : !P {
pipeline.produce %p as %s1441 : !P {
pipeline.produce %p as %s1442 : !P {
pipeline.produce %p as %s1443 : !P {
pipeline.produce %p as %s1444 : !P {
pipeline.produce %p as %s1445 : !P {
pipeline.produce %p as %s1446 : !P {
pipeline.produce %p as %s1447 : !P {
pipeline.produce %p as %s1448 : !P {
pipeline.produce %p as %s1449 : !P {
pipeline.produce %p as %s1450 : !P {
pipeline.produce %p as %s1451 : !P {
pipeline.produce %p as %s1452 : !P {
pipeline.produce %p as %s1453 : !P {
pipeline.produce %p as %s1454 : !P {
pipeline.produce %p as %s1455 : !P {
pipeline.produce %p as %s1456 : !P {
pipeline.produce %p as %s1457 : !P {
pipeline.produce %p as %s1458 : !P {
pipeline.produce %p as %s1459 : !P {
pipeline.produce %p as %s1460 : !P {
pipeline.produce %p as %s1461 : !P {
pipeline.produce %p as %s1462 : !P {
pipeline.produce %p as %s1463 : !P {
pipeline.produce %p as %s1464 : !P {
pipeline.produce %p as %s1465 : !P {
pipeline.produce %p as %s1466 : !P {
pipeline.produce %p as %s1467 : !P {
pipeline.produce %p as %s1468 : !P {
pipeline.produce %p as %s1469 : !P {
pipeline.produce %p as %s1470 : !P {
pipeline.produce %p as %s1471 : !P {
pipeline.produce %p as %s1472 : !P {
pipeline.produce %p as %s1473 : !P {
pipeline.produce %p as %s1474 : !P {
pipeline.produce %p as %s1475 : !P {
pipeline.produce %p as %s1476 : !P {
pipeline.produce %p as %s1477 : !P {
pipeline.produce %p as %s1478 : !P {
pipeline.produce %p as %s1479 : !P {
pipeline.produce %p as %s1480 : !P {
pipeline.produce %p as %s1481 : !P {
pipeline.produce %p as %s1482 : !P {
pipeline.produce %p as %s1483 : !P {
pipeline.produce %p as %s1484 : !P {
pipeline.produce %p as %s1485 : !P {
pipeline.produce %p as %s1486 : !P {
pipeline.produce %p as %s1487 : !P {
pipeline.produce %p as %s1488 : !P {
pipeline.produce %p as %s1489 : !P {
pipeline.produce %p as %s1490 : !P {
pipeline.produce %p as %s1491 : !P {
pipeline.produce %p as %s1492 : !P {
pipeline.produce %p as %s1493 : !P {
pipeline.produce %p as %s1494 : !P {
pipeline.produce %p as %s1495 : !P {
pipeline.produce %p as %s1496 : !P {
pipeline.produce %p as %s1497 : !P {
pipeline.produce %p as %s1498 : !P {
pipeline.produce %p as %s1499 : !P {
pipeline.produce %p as %s1500 : !P {
pipeline.produce %p as %s1501 : !P {
pipeline.produce %p as %s1502 : !P {
pipeline.produce %p as %s1503 : !P {
pipeline.produce %p as %s1504 : !P {
pipeline.produce %p as %s1505 : !P {
pipeline.produce %p as %s1506 : !P {
pipeline.produce %p as %s1507 : !P {
pipeline.produce %p as %s1508 : !P {
pipeline.produce %p as %s1509 : !P {
pipeline.produce %p as %s1510 : !P {
pipeline.produce %p as %s1511 : !P {
pipeline.produce %p as %s1512 : !P {
pipeline.produce %p as %s1513 : !P {
pipeline.produce %p as %s1514 : !P {
pipeline.produce %p as %s1515 : !P {
pipeline.produce %p as %s1516 : !P {
pipeline.produce %p as %s1517 : !P {
pipeline.produce %p as %s1518 : !P {
pipeline.produce %p as %s1519 : !P {
pipeline.produce %p as %s1520 : !P {
pipeline.produce %p as %s1521 : !P {
pipeline.produce %p as %s1522 : !P {
pipeline.produce %p as %s1523 : !P {
pipeline.produce %p as %s1524 : !P {
pipeline.produce %p as %s1525 : !P {
pipeline.produce %p as %s1526 : !P {
pipeline.produce %p as %s1527 : !P {
pipeline.produce %p as %s1528 : !P {
pipeline.produce %p as %s1529 : !P {
pipeline.produce %p as %s1530 : !P {
pipeline.produce %p as %s1531 : !P {
pipeline.produce %p as %s1532 : !P {
pipeline.produce %p as %s1533 : !P {
pipeline.produce %p as %s1534 : !P {
pipeline.produce %p as %s1535 : !P {
pipeline.produce %p as %s1536 : !P {
pipeline.produce %p as %s1537 : !P {
pipeline.produce %p as %s1538 : !P {
pipeline.produce %p as %s1539 : !P {
pipeline.produce %p as %s1540 : !P {
pipeline.produce %p as %s1541 : !P {
pipeline.produce %p as %s1542 : !P {
pipeline.produce %p as %s1543 : !P {
pipeline.produce %p as %s1544 : !P {
pipeline.produce %p as %s1545 : !P {
pipeline.produce %p as %s1546 : !P {
pipeline.produce %p as %s1547 : !P {
pipeline.produce %p as %s1548 : !P {
pipeline.produce %p as %s1549 : !P {
pipeline.produce %p as %s1550 : !P {
pipeline.produce %p as %s1551 : !P {
pipeline.produce %p as %s1552 : !P {
pipeline.produce %p as %s1553 : !P {
pipeline.produce %p as %s1554 : !P {
pipeline.produce %p as %s1555 : !P {
pipeline.produce %p as %s1556 : !P {
pipeline.produce %p as %s1557 : !P {
pipeline.produce %p as %s1558 : !P {
pipeline.produce %p as %s1559 : !P {
pipeline.produce %p as %s1560 : !P {
pipeline.produce %p as %s1561 : !P {
pipeline.produce %p as %s1562 : !P {
pipeline.produce %p as %s1563 : !P {
pipeline.produce %p as %s1564 : !P {
pipeline.produce %p as %s1565 : !P {
pipeline.produce %p as %s1566 : !P {
pipeline.produce %p as %s1567 : !P {
pipeline.produce %p as %s1568 : !P {
pipeline.produce %p as %s1569 : !P {
pipeline.produce %p as %s1570 : !P {
pipeline.produce %p as %s1571 : !P {
pipeline.produce %p as %s1572 : !P {
pipeline.produce %p as %s1573 : !P {
pipeline.produce %p as %s1574 : !P {
pipeline.produce %p as %s1575 : !P {
pipeline.produce %p as %s1576 : !P {
pipeline.produce %p as %s1577 : !P {
pipeline.produce %p as %s1578 : !P {
pipeline.produce %p as %s1579 : !P {
pipeline.produce %p as %s1580 : !P {
pipeline.produce %p as %s1581 : !P {
pipeline.produce %p as %s1582 : !P {
pipeline.produce %p as %s1583 : !P {
pipeline.produce %p as %s1584 : !P {
pipeline.produce %p as %s1585 : !P {
pipeline.produce %p as %s1586 : !P {
pipeline.produce %p as %s1587 : !P {
pipeline.produce %p as %s1588 : !P {
pipeline.produce %p as %s1589 : !P {
pipeline.produce %p as %s1590 : !P {
pipeline.produce %p as %s1591 : !P {
pipeline.produce %p as %s1592 : !P {
pipeline.produce %p as %s1593 : !P {
pipeline.produce %p as %s1594 : !P {
pipeline.produce %p as %s1595 : !P {
pipeline.produce %p as %s1596 : !P {
pipeline.produce %p as %s1597 : !P {
pipeline.produce %p as %s1598 : !P {
pipeline.produce %p as %s1599 : !P {
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
return
}
