// softmax_exp.hpp: the exponential of a softmax row, vectorised. p[i] = exp(p[i] − shift) for a
// row of scores, returning the row's sum in the same pass; or 2^(p[i] − shift), for scores taken
// in units of log₂ e (the fused kernel's).
//
// Both scalar types have their own exp for x ≤ 0. Eigen's double exp (a Padé quotient, with a
// vector division) took about 15 % of the f64 kernel's time; the polynomial below, without a
// division, raised the f64 streaming kernel from about 0.77 to 0.85 of the f64 GEMM (one thread,
// T = 1024, AVX-512). Eigen's float exp clamps both ends and builds 2ⁿ by a general ldexp (about
// 19 instructions with AVX-512, more with AVX2); the one below knows x ≤ 0 and scales by 2ⁿ in
// one instruction (AVX-512) or four (an exponent shifted into place).
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_SOFTMAX_EXP_HPP_
#define AWB_PLUGINS_COMMON_SOFTMAX_EXP_HPP_

#include <Eigen/Core>
#include <cmath>
#include <type_traits>

namespace awb::kernels {
namespace detail {

// exp(x) for a packet of doubles, x ≤ 0 (a score minus its row's maximum; −inf gives 0). With
// n = round(x / ln 2) and r = x − n·ln 2 (|r| ≤ ln 2 / 2; ln 2 split in two as in fdlibm, so that
// n·ln2_hi is exact), exp(x) = 2ⁿ·exp(r) (exp_reduced_f64), and exp(r) is its Taylor series to
// r¹³: the first term left out, r¹⁴/14!, is below 5·10⁻¹⁸ of the result, far under the rounding
// of the multiply-adds.
// The polynomial is evaluated by Estrin's scheme (a tree, not Horner's chain of 13 dependent
// multiply-adds: the chain's latency made it slower than Eigen's exp).
template <class Packet>
Packet exp_reduced_f64(const Packet& r, const Packet& n) {
  using namespace Eigen::internal;
  // Estrin: pairs of terms, then fours, then eights, each level independent of its neighbours.
  const Packet r2 = pmul(r, r), r4 = pmul(r2, r2), r8 = pmul(r4, r4);
  auto c = [](double v) { return pset1<Packet>(v); };
  const Packet p01 = pmadd(r, c(1.0), c(1.0));
  const Packet p23 = pmadd(r, c(1.0 / 6), c(0.5));
  const Packet p45 = pmadd(r, c(1.0 / 120), c(1.0 / 24));
  const Packet p67 = pmadd(r, c(1.0 / 5040), c(1.0 / 720));
  const Packet p89 = pmadd(r, c(1.0 / 362880), c(1.0 / 40320));
  const Packet pab = pmadd(r, c(1.0 / 39916800), c(1.0 / 3628800));
  const Packet pcd = pmadd(r, c(1.0 / 6227020800.0), c(1.0 / 479001600));
  const Packet p03 = pmadd(r2, p23, p01);
  const Packet p47 = pmadd(r2, p67, p45);
  const Packet p8b = pmadd(r2, pab, p89);
  const Packet p07 = pmadd(r4, p47, p03);
  const Packet p8d = pmadd(r4, pcd, p8b);
  const Packet p = pmadd(r8, p8d, p07);
#ifdef __AVX512F__
  // p·2ⁿ in one instruction (Eigen's portable pldexp builds 2ⁿ from integer pieces).
  if constexpr (sizeof(Packet) == sizeof(__m512d)) return _mm512_scalef_pd(p, n);
#endif
  return pldexp(p, n);
}

template <class Packet>
Packet exp_nonpositive_f64(const Packet& x_in) {
  using namespace Eigen::internal;
  // Below −745 the result is 0 in double; clamping keeps n finite (and −inf away from r).
  const Packet x = pmax(x_in, pset1<Packet>(-746.0));
  const Packet n = pfloor(pmadd(x, pset1<Packet>(1.4426950408889634), pset1<Packet>(0.5)));
  Packet r = pmadd(n, pset1<Packet>(-6.93147180369123816490e-01), x);  // ln2_hi
  r = pmadd(n, pset1<Packet>(-1.90821492927058770002e-10), r);         // ln2_lo = ln 2 − ln2_hi
  return exp_reduced_f64(r, n);
}

// 2^x for a packet of doubles, x ≤ 0. n = rint(x) and f = x − n are exact (|f| ≤ 1/2), and
// 2^f = exp(f · ln 2), whose argument is rounded once: |f · ln 2| ≤ ln 2 / 2, the range above.
template <class Packet>
Packet exp2_nonpositive_f64(const Packet& x_in) {
  using namespace Eigen::internal;
  const Packet x = pmax(x_in, pset1<Packet>(-1076.0));  // below −1075 the result is 0
  const Packet n = print(x);
  return exp_reduced_f64(pmul(psub(x, n), pset1<Packet>(0.69314718055994530942)), n);
}

// How a float packet is scaled by 2ⁿ: one vscalefps with AVX-512, which takes any n; otherwise
// 2ⁿ is built as a normal float, so n ≥ −126 and the arguments below are clamped and selected 0.
template <class Packet>
#ifdef __AVX512F__
inline constexpr bool kScalef = sizeof(Packet) == sizeof(__m512);
#else
inline constexpr bool kScalef = false;
#endif

// y · 2ⁿ for a float packet, 0 where x_in < lowest (without scalef, the argument's clamp).
template <class Packet>
Packet times_pow2_f32(const Packet& y, const Packet& n, const Packet& x_in, float lowest) {
  using namespace Eigen::internal;
  if constexpr (kScalef<Packet>) {
#ifdef __AVX512F__
    return _mm512_scalef_ps(y, n);
#endif
  } else {
    using PacketI = typename unpacket_traits<Packet>::integer_packet;
    const PacketI e = pcast<Packet, PacketI>(padd(n, pset1<Packet>(127.0f)));
    const Packet scaled = pmul(y, preinterpret<Packet>(plogical_shift_left<23>(e)));
    return pselect(pcmp_lt(x_in, pset1<Packet>(lowest)), pzero(scaled), scaled);
  }
}

// exp(x) for a packet of floats, x ≤ 0 (−inf gives 0). The same reduction as the double one, with
// the polynomial of Cephes's expf (Moshier, degree 7, relative error about 1 ulp on |r| ≤ ln 2 /
// 2).
template <class Packet>
Packet exp_nonpositive_f32(const Packet& x_in) {
  using namespace Eigen::internal;
  auto c = [](float v) { return pset1<Packet>(v); };
  // With scalef any n works, and below −104 the result is 0 in float. Without it n ≥ −126: x
  // stops at −87.3 and a select gives the 0 below.
  constexpr float kLowest = kScalef<Packet> ? -104.0f : -87.3f;
  const Packet x = pmax(x_in, c(kLowest));
  const Packet n = pfloor(pmadd(x, c(1.44269504088896341f), c(0.5f)));
  Packet r = pmadd(n, c(-0.693359375f), x);  // ln 2 in two parts, the first exact in n · it
  r = pmadd(n, c(2.12194440e-4f), r);
  const Packet r2 = pmul(r, r), r3 = pmul(r2, r);
  Packet y = pmadd(c(1.9875691500e-4f), r, c(1.3981999507e-3f));
  Packet y1 = pmadd(c(4.1665795894e-2f), r, c(1.6666665459e-1f));
  y = pmadd(y, r, c(8.3334519073e-3f));
  y1 = pmadd(y1, r, c(5.0000001201e-1f));
  y = pmadd(y, r3, y1);
  y = pmadd(y, r2, padd(r, c(1.0f)));
  return times_pow2_f32(y, n, x_in, kLowest);
}

// 2^x for a packet of floats, x ≤ 0 (−inf gives 0): what the fused kernel's softmax runs, its
// scores taken in units of log₂ e so that no multiply by 1/ln 2 and no two-part ln 2 is needed.
// n = rint(x) and f = x − n are exact (|f| ≤ 1/2), and 2^f = 1 + f·q(f), q of degree 5
// interpolating (2^f − 1)/f at the six Chebyshev nodes of [−1/2, 1/2] (fitted for this file:
// 5·10⁻⁹ relative error before rounding, about one ulp after it): six multiply-adds in all.
template <class Packet>
Packet exp2_nonpositive_f32(const Packet& x_in) {
  using namespace Eigen::internal;
  auto c = [](float v) { return pset1<Packet>(v); };
  // Below −150 the result is 0 in float; without scalef n ≥ −126.
  constexpr float kLowest = kScalef<Packet> ? -151.0f : -126.0f;
  const Packet x = pmax(x_in, c(kLowest));
  const Packet n = print(x);
  const Packet f = psub(x, n);
  Packet q = pmadd(c(1.5453163359779865e-4f), f, c(1.3390863314270973e-3f));
  q = pmadd(q, f, c(9.618083015084267e-3f));
  q = pmadd(q, f, c(5.5503569543361664e-2f));
  q = pmadd(q, f, c(2.4022650718688965e-1f));
  q = pmadd(q, f, c(6.931471824645996e-1f));
  return times_pow2_f32(pmadd(q, f, c(1.0f)), n, x_in, kLowest);
}

}  // namespace detail

// The base of exp_shifted_sum's powers: e, or 2 for scores in units of log₂ e.
enum class ExpBase { kE, kTwo };

// p[i] = exp(p[i] − shift) (2^(p[i] − shift) with ExpBase::kTwo) for i < n; returns the sum of
// the new p[i]. shift ≥ every p[i].
template <class Scalar, ExpBase kBase = ExpBase::kE>
Scalar exp_shifted_sum(Scalar* p, Eigen::Index n, Scalar shift) {
  constexpr bool kTwo = kBase == ExpBase::kTwo;
  using namespace Eigen::internal;
  using Packet = typename packet_traits<Scalar>::type;
  constexpr Eigen::Index kLanes = packet_traits<Scalar>::size;
  Eigen::Index i = 0;
  Scalar sum = 0;
  if constexpr (packet_traits<Scalar>::Vectorizable && kLanes > 1) {
    const Packet s = pset1<Packet>(shift);
    Packet acc = pset1<Packet>(Scalar(0));
    for (; i + kLanes <= n; i += kLanes) {
      const Packet x = psub(ploadu<Packet>(p + i), s);
      Packet e;
      if constexpr (std::is_same_v<Scalar, double>)
        e = kTwo ? detail::exp2_nonpositive_f64(x) : detail::exp_nonpositive_f64(x);
      else
        e = kTwo ? detail::exp2_nonpositive_f32(x) : detail::exp_nonpositive_f32(x);
      pstoreu(p + i, e);
      acc = padd(acc, e);
    }
    sum = predux(acc);
  }
  for (; i < n; ++i) {
    p[i] = kTwo ? std::exp2(p[i] - shift) : std::exp(p[i] - shift);
    sum += p[i];
  }
  return sum;
}

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_SOFTMAX_EXP_HPP_
