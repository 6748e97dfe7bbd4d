//! The twin's own small PRNG (xoshiro256++ seeded by splitmix64) and the samplers the model
//! needs. Hand-rolled so a `(scenario, seed)` pair gives the same numbers on every platform and
//! every release, which a `rand` upgrade would not promise.

#[derive(Debug, Clone)]
pub(crate) struct Rng {
    s: [u64; 4],
    /// Second value of the last Box–Muller pair.
    spare: Option<f64>,
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        let mut x = seed;
        let s = [
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
        ];
        Rng { s, spare: None }
    }

    /// An independent stream for one part of the model, so adding draws in one part does not
    /// shift every other part's numbers.
    pub(crate) fn fork(&mut self, salt: u64) -> Rng {
        Rng::new(self.next_u64() ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in (0, 1): never exactly 0, so `ln` is always finite.
    #[inline]
    pub(crate) fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    #[inline]
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }

    /// Exponential with the given mean.
    #[inline]
    pub(crate) fn exp(&mut self, mean: f64) -> f64 {
        -mean * self.uniform().ln()
    }

    /// Standard normal (Marsaglia's polar method, both values used: no trigonometry).
    pub(crate) fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        loop {
            let u = 2.0 * self.uniform() - 1.0;
            let v = 2.0 * self.uniform() - 1.0;
            let s = u * u + v * v;
            if s < 1.0 && s > 0.0 {
                let f = (-2.0 * s.ln() / s).sqrt();
                self.spare = Some(v * f);
                return u * f;
            }
        }
    }

    /// Lognormal parameterised by its *mean* (not its median) and the σ of the underlying
    /// normal: the model's latencies are calibrated as means.
    #[inline]
    pub(crate) fn lognormal(&mut self, mean: f64, sigma: f64) -> f64 {
        if sigma <= 0.0 {
            return mean;
        }
        mean * (sigma * self.normal() - 0.5 * sigma * sigma).exp()
    }

    /// Gamma with the given mean and coefficient of variation (cv = 1 is exponential).
    pub(crate) fn gamma(&mut self, mean: f64, cv: f64) -> f64 {
        if cv <= 0.0 {
            return mean;
        }
        if (cv - 1.0).abs() < 1e-9 {
            return self.exp(mean);
        }
        let shape = 1.0 / (cv * cv);
        let scale = mean / shape;
        scale * self.std_gamma(shape)
    }

    /// Marsaglia–Tsang; shape < 1 via the usual boost.
    fn std_gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            let u = self.uniform();
            return self.std_gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = self.uniform();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// Number of trials until the first success (≥ 1) with success probability `p`.
    pub(crate) fn geometric(&mut self, p: f64) -> u32 {
        let mut k = 1;
        while k < 1000 && !self.chance(p) {
            k += 1;
        }
        k
    }
}

/// Error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7): enough to split bulk waits
/// over histogram buckets.
pub(crate) fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// P(X < x) for a lognormal with the given mean and σ.
pub(crate) fn lognormal_cdf(x: f64, mean: f64, sigma: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if sigma <= 0.0 {
        return if x > mean { 1.0 } else { 0.0 };
    }
    let mu = mean.ln() - 0.5 * sigma * sigma;
    0.5 * (1.0 + erf((x.ln() - mu) / (sigma * std::f64::consts::SQRT_2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_of(n: usize, mut f: impl FnMut() -> f64) -> f64 {
        (0..n).map(|_| f()).sum::<f64>() / n as f64
    }

    #[test]
    fn same_seed_same_stream_different_seed_different_stream() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let mut r = Rng::new(7);
        let b: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        let mut r = Rng::new(8);
        let c: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn samplers_have_the_requested_means() {
        let mut r = Rng::new(1);
        let n = 200_000;
        let e = mean_of(n, || r.exp(14.66));
        assert!((e - 14.66).abs() < 0.15, "exp mean {e}");
        let l = mean_of(n, || r.lognormal(515.0, 0.35));
        assert!((l - 515.0).abs() < 3.0, "lognormal mean {l}");
        let g = mean_of(n, || r.gamma(10.0, 0.5));
        assert!((g - 10.0).abs() < 0.1, "gamma mean {g}");
        let u = mean_of(n, || r.uniform());
        assert!((u - 0.5).abs() < 0.005);
        let geo = mean_of(n, || f64::from(r.geometric(0.5)));
        assert!((geo - 2.0).abs() < 0.03, "geometric mean {geo}");
        let z: Vec<f64> = (0..n).map(|_| r.normal()).collect();
        let m = z.iter().sum::<f64>() / n as f64;
        let var = z.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
        assert!(
            m.abs() < 0.01 && (var - 1.0).abs() < 0.01,
            "normal {m} {var}"
        );
    }

    #[test]
    fn lognormal_cdf_matches_samples() {
        let mut r = Rng::new(3);
        let n = 100_000;
        let below = (0..n).filter(|_| r.lognormal(1000.0, 0.5) < 1024.0).count();
        let share = below as f64 / n as f64;
        let cdf = lognormal_cdf(1024.0, 1000.0, 0.5);
        assert!((share - cdf).abs() < 0.01, "{share} vs {cdf}");
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
    }
}
