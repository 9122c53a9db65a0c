;; The exact dense scan's inner loop in WebAssembly SIMD (compiled into denseKernel.ts; the test
;; test/harness/vectorSearch/denseKernel.test.ts recompiles this file and checks the bytes).
;;
;; scores(p, query, dim, rows, out): for each of `rows` consecutive float32 rows starting at byte
;; `p`, the dot product with the float64 query at byte `query`, stored as float64 at `out`.
;; The arithmetic is dot4's (stores.ts) to the bit: four partial sums a, b, c, d over the
;; elements j ≡ 0, 1, 2, 3 (mod 4), each a running double sum of float32 × float64 products in
;; element order (lanes of $ab are a, b; of $cd are c, d); the dim % 4 tail elements go into a;
;; the result is a + b + (c + d). WebAssembly never fuses a multiply and an add, as JavaScript
;; does not, so every product and sum rounds exactly as in dot4.
;; A row's sums form two chains of dependent adds whose order is fixed (that is what keeps the
;; scores identical), so the loop runs at the latency of those adds: about 1.3 floats a cycle,
;; close to the memory's speed on a corpus larger than the caches. Scoring two or four rows per
;; loop (more independent chains) was tried and ran 2–3× slower under V8's optimising compiler.
(module
  (import "env" "memory" (memory 0))
  (func (export "scores") (param $p i32) (param $query i32) (param $dim i32) (param $rows i32) (param $out i32)
    (local $r i32) (local $q i32) (local $qbody i32) (local $qend i32)
    (local $ab v128) (local $cd v128) (local $x v128) (local $a f64)
    (local.set $qbody (i32.add (local.get $query) (i32.shl (i32.and (local.get $dim) (i32.const -4)) (i32.const 3))))
    (local.set $qend (i32.add (local.get $query) (i32.shl (local.get $dim) (i32.const 3))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $ab (v128.const i64x2 0 0))
        (local.set $cd (v128.const i64x2 0 0))
        (local.set $q (local.get $query))
        (block $bodyDone
          (loop $body
            (br_if $bodyDone (i32.ge_u (local.get $q) (local.get $qbody)))
            (local.set $x (v128.load align=4 (local.get $p)))
            (local.set $ab
              (f64x2.add (local.get $ab)
                (f64x2.mul (f64x2.promote_low_f32x4 (local.get $x)) (v128.load align=8 (local.get $q)))))
            (local.set $cd
              (f64x2.add (local.get $cd)
                (f64x2.mul
                  (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
                  (v128.load offset=16 align=8 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $body)))
        (local.set $a (f64x2.extract_lane 0 (local.get $ab)))
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $q) (local.get $qend)))
            (local.set $a
              (f64.add (local.get $a) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.load (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 8)))
            (br $tail)))
        (f64.store (local.get $out)
          (f64.add
            (f64.add (local.get $a) (f64x2.extract_lane 1 (local.get $ab)))
            (f64.add (f64x2.extract_lane 0 (local.get $cd)) (f64x2.extract_lane 1 (local.get $cd)))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
