;; The cluster bootstrap's inner loops in WebAssembly SIMD (compiled into replicateKernel.ts; the
;; test test/harness/stats/replicateKernel.test.ts recompiles this file and checks the bytes).
;;
;; replicate(row, shift, c, k, vecs, nvec, out): a replicate's multiplicities, four bits per
;; question at bit `shift` of the bytes from `row` (drawMultiplicities' layout), into the k
;; float64 at `c`; then dots(c, k, vecs, nvec, out).
;;
;; dots(c, k, vecs, nvec, out): for each of `nvec` float64 vectors of k elements stored one after
;; another from `vecs`, its dot product with c, stored as float64 at out + 8·v.
;;
;; The arithmetic is dot()'s (clusterBootstrap.ts) to the bit: four partial sums s0 … s3 over the
;; elements j ≡ 0 … 3 (mod 4) of the k − k % 4 first, each a running double sum of products in
;; element order (the lanes of $a are s0, s1; of $b s2, s3); the k % 4 tail elements go into s0
;; one by one; the result is (s0 + s1) + (s2 + s3). WebAssembly never fuses a multiply and an
;; add, as JavaScript does not, so every product and sum rounds exactly as in dot(). One
;; vector's sums are two chains of dependent adds whose order is fixed; four vectors at a time
;; make eight independent chains sharing each load of c, so the loop is bound by its loads and
;; arithmetic rather than by the latency of the adds (the JavaScript loop ran at about one
;; element per nanosecond, one vector at a time).
(module
  (import "env" "memory" (memory 0))

  ;; The tail (elements from byte offset $j to $end, into s0) and the sum of one vector's partial sums.
  (func $finish (param $a v128) (param $b v128) (param $c i32) (param $v i32) (param $j i32) (param $end i32) (result f64)
    (local $s0 f64)
    (local.set $s0 (f64x2.extract_lane 0 (local.get $a)))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $j) (local.get $end)))
        (local.set $s0 (f64.add (local.get $s0)
          (f64.mul (f64.load (i32.add (local.get $c) (local.get $j))) (f64.load (i32.add (local.get $v) (local.get $j))))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $tail)))
    (f64.add
      (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $a)))
      (f64.add (f64x2.extract_lane 0 (local.get $b)) (f64x2.extract_lane 1 (local.get $b)))))

  (func $dots (export "dots") (param $c i32) (param $k i32) (param $vecs i32) (param $nvec i32) (param $out i32)
    (local $stride i32) (local $body i32) (local $end i32) (local $j i32) (local $v i32) (local $p i32)
    (local $c01 v128) (local $c23 v128)
    (local $a0 v128) (local $b0 v128) (local $a1 v128) (local $b1 v128)
    (local $a2 v128) (local $b2 v128) (local $a3 v128) (local $b3 v128)
    (local.set $stride (i32.shl (local.get $k) (i32.const 3)))
    (local.set $end (local.get $stride))
    (local.set $body (i32.shl (i32.and (local.get $k) (i32.const -4)) (i32.const 3)))
    ;; Four vectors at a time.
    (block $fourDone
      (loop $four
        (br_if $fourDone (i32.lt_u (local.get $nvec) (i32.const 4)))
        (local.set $a0 (v128.const i64x2 0 0)) (local.set $b0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0)) (local.set $b1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0)) (local.set $b2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0)) (local.set $b3 (v128.const i64x2 0 0))
        (local.set $j (i32.const 0))
        (block $bodyDone
          (loop $body4
            (br_if $bodyDone (i32.ge_u (local.get $j) (local.get $body)))
            (local.set $c01 (v128.load align=8 (i32.add (local.get $c) (local.get $j))))
            (local.set $c23 (v128.load offset=16 align=8 (i32.add (local.get $c) (local.get $j))))
            (local.set $p (i32.add (local.get $vecs) (local.get $j)))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $c01) (v128.load align=8 (local.get $p)))))
            (local.set $b0 (f64x2.add (local.get $b0) (f64x2.mul (local.get $c23) (v128.load offset=16 align=8 (local.get $p)))))
            (local.set $p (i32.add (local.get $p) (local.get $stride)))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $c01) (v128.load align=8 (local.get $p)))))
            (local.set $b1 (f64x2.add (local.get $b1) (f64x2.mul (local.get $c23) (v128.load offset=16 align=8 (local.get $p)))))
            (local.set $p (i32.add (local.get $p) (local.get $stride)))
            (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $c01) (v128.load align=8 (local.get $p)))))
            (local.set $b2 (f64x2.add (local.get $b2) (f64x2.mul (local.get $c23) (v128.load offset=16 align=8 (local.get $p)))))
            (local.set $p (i32.add (local.get $p) (local.get $stride)))
            (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $c01) (v128.load align=8 (local.get $p)))))
            (local.set $b3 (f64x2.add (local.get $b3) (f64x2.mul (local.get $c23) (v128.load offset=16 align=8 (local.get $p)))))
            (local.set $j (i32.add (local.get $j) (i32.const 32)))
            (br $body4)))
        (local.set $v (local.get $vecs))
        (f64.store (local.get $out) (call $finish (local.get $a0) (local.get $b0) (local.get $c) (local.get $v) (local.get $j) (local.get $end)))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (f64.store offset=8 (local.get $out) (call $finish (local.get $a1) (local.get $b1) (local.get $c) (local.get $v) (local.get $j) (local.get $end)))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (f64.store offset=16 (local.get $out) (call $finish (local.get $a2) (local.get $b2) (local.get $c) (local.get $v) (local.get $j) (local.get $end)))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (f64.store offset=24 (local.get $out) (call $finish (local.get $a3) (local.get $b3) (local.get $c) (local.get $v) (local.get $j) (local.get $end)))
        (local.set $vecs (i32.add (local.get $v) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $nvec (i32.sub (local.get $nvec) (i32.const 4)))
        (br $four)))
    ;; The rest one at a time.
    (block $oneDone
      (loop $one
        (br_if $oneDone (i32.eqz (local.get $nvec)))
        (local.set $a0 (v128.const i64x2 0 0)) (local.set $b0 (v128.const i64x2 0 0))
        (local.set $j (i32.const 0))
        (block $bodyDone
          (loop $body1
            (br_if $bodyDone (i32.ge_u (local.get $j) (local.get $body)))
            (local.set $p (i32.add (local.get $vecs) (local.get $j)))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (v128.load align=8 (i32.add (local.get $c) (local.get $j))) (v128.load align=8 (local.get $p)))))
            (local.set $b0 (f64x2.add (local.get $b0) (f64x2.mul (v128.load offset=16 align=8 (i32.add (local.get $c) (local.get $j))) (v128.load offset=16 align=8 (local.get $p)))))
            (local.set $j (i32.add (local.get $j) (i32.const 32)))
            (br $body1)))
        (f64.store (local.get $out) (call $finish (local.get $a0) (local.get $b0) (local.get $c) (local.get $vecs) (local.get $j) (local.get $end)))
        (local.set $vecs (i32.add (local.get $vecs) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $nvec (i32.sub (local.get $nvec) (i32.const 1)))
        (br $one))))

  (func (export "replicate") (param $row i32) (param $shift i32) (param $c i32) (param $k i32) (param $vecs i32) (param $nvec i32) (param $out i32)
    (local $j i32) (local $at i32)
    (local.set $at (local.get $c))
    (block $done
      (loop $decode
        (br_if $done (i32.ge_u (local.get $j) (local.get $k)))
        (f64.store (local.get $at)
          (f64.convert_i32_u (i32.and (i32.shr_u (i32.load8_u (i32.add (local.get $row) (local.get $j))) (local.get $shift)) (i32.const 15))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (br $decode)))
    (call $dots (local.get $c) (local.get $k) (local.get $vecs) (local.get $nvec) (local.get $out))))
