;; The exact dense scan's inner loop in WebAssembly SIMD (compiled into denseKernel.ts; the test
;; test/harness/vectorSearch/denseKernel.test.ts recompiles this file and checks the bytes).
;;
;; scores(p, query, dim, rows, out): for each of `rows` consecutive float32 rows starting at byte
;; `p`, the dot product with the float64 query at byte `query`, stored as float64 at `out`.
;; The arithmetic is dot8's (stores.ts) to the bit: eight partial sums s0 … s7 over the elements
;; j ≡ 0 … 7 (mod 8), each a running double sum of float32 × float64 products in element order
;; (the lanes of $s01 are s0, s1; of $s23 s2, s3; and so on); the dim % 8 tail elements go into
;; s0; the result is ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)). WebAssembly never fuses a
;; multiply and an add, as JavaScript does not, so every product and sum rounds exactly as in dot8.
;; A row's sums form four chains of dependent adds whose order is fixed (that is what keeps the
;; scores identical); with four chains the loop is bound by its instruction count, not by the
;; latency of the adds as it was with two (four partial sums), so the body does sixteen elements
;; per step (then eight, then one at a time), and each pair of floats is loaded straight into a
;; promotion (v128.load64_zero) rather than loaded by four and shuffled. On 1M × 384 the kernel
;; alone went from 1.5–1.7× one SIMD pass over the vectors to 1.2–1.35× (a whole exact query,
;; top-k included, 1.41–1.47× in `npm run bench:search`). Scoring two rows per loop instead (same
;; sums, more chains) ran 2.5× slower under V8's optimising compiler.
(module
  (import "env" "memory" (memory 0))
  (func (export "scores") (param $p i32) (param $query i32) (param $dim i32) (param $rows i32) (param $out i32)
    (local $r i32) (local $q i32) (local $qbody i32) (local $qend i32)
    (local $s01 v128) (local $s23 v128) (local $s45 v128) (local $s67 v128) (local $a f64)
    (local.set $qbody (i32.add (local.get $query) (i32.shl (i32.and (local.get $dim) (i32.const -8)) (i32.const 3))))
    (local.set $qend (i32.add (local.get $query) (i32.shl (local.get $dim) (i32.const 3))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s01 (v128.const i64x2 0 0))
        (local.set $s23 (v128.const i64x2 0 0))
        (local.set $s45 (v128.const i64x2 0 0))
        (local.set $s67 (v128.const i64x2 0 0))
        (local.set $q (local.get $query))
        (block $body16Done
          (loop $body16
            (br_if $body16Done (i32.gt_u (i32.add (local.get $q) (i32.const 128)) (local.get $qbody)))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero align=4 (local.get $p))) (v128.load align=8 (local.get $q)))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 align=4 (local.get $p))) (v128.load offset=16 align=8 (local.get $q)))))
            (local.set $s45 (f64x2.add (local.get $s45) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 align=4 (local.get $p))) (v128.load offset=32 align=8 (local.get $q)))))
            (local.set $s67 (f64x2.add (local.get $s67) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 align=4 (local.get $p))) (v128.load offset=48 align=8 (local.get $q)))))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=32 align=4 (local.get $p))) (v128.load offset=64 align=8 (local.get $q)))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=40 align=4 (local.get $p))) (v128.load offset=80 align=8 (local.get $q)))))
            (local.set $s45 (f64x2.add (local.get $s45) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=48 align=4 (local.get $p))) (v128.load offset=96 align=8 (local.get $q)))))
            (local.set $s67 (f64x2.add (local.get $s67) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=56 align=4 (local.get $p))) (v128.load offset=112 align=8 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (local.set $q (i32.add (local.get $q) (i32.const 128)))
            (br $body16)))
        (block $bodyDone
          (loop $body
            (br_if $bodyDone (i32.ge_u (local.get $q) (local.get $qbody)))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero align=4 (local.get $p))) (v128.load align=8 (local.get $q)))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 align=4 (local.get $p))) (v128.load offset=16 align=8 (local.get $q)))))
            (local.set $s45 (f64x2.add (local.get $s45) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 align=4 (local.get $p))) (v128.load offset=32 align=8 (local.get $q)))))
            (local.set $s67 (f64x2.add (local.get $s67) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 align=4 (local.get $p))) (v128.load offset=48 align=8 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 64)))
            (br $body)))
        (local.set $a (f64x2.extract_lane 0 (local.get $s01)))
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $q) (local.get $qend)))
            (local.set $a (f64.add (local.get $a) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.load (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 8)))
            (br $tail)))
        (f64.store (local.get $out)
          (f64.add
            (f64.add
              (f64.add (local.get $a) (f64x2.extract_lane 1 (local.get $s01)))
              (f64.add (f64x2.extract_lane 0 (local.get $s23)) (f64x2.extract_lane 1 (local.get $s23))))
            (f64.add
              (f64.add (f64x2.extract_lane 0 (local.get $s45)) (f64x2.extract_lane 1 (local.get $s45)))
              (f64.add (f64x2.extract_lane 0 (local.get $s67)) (f64x2.extract_lane 1 (local.get $s67))))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
