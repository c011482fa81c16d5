//! The diverging colormap of the viewer: negative values blue, zero white, positive red, so the
//! sign pattern of a factor and the size of its entries read at a glance. The range is symmetric
//! around zero and taken from a high percentile of |v|, so one huge entry (a pivot, an outlier)
//! does not wash every other texel out to white.

/// An RGB colour.
pub type Rgb = [u8; 3];

/// The colour of NaN texels (never produced for a finite value).
pub const NAN: Rgb = [255, 0, 255];

/// The share of finite |v| that lies inside the range; the rest is clamped to the end colours.
pub const PERCENTILE: f64 = 0.99;

/// ColorBrewer's 11-class RdBu, from −1 (dark blue) through 0 (near white) to +1 (dark red).
const ANCHORS: [Rgb; 11] = [
    [5, 48, 97],
    [33, 102, 172],
    [67, 147, 195],
    [146, 197, 222],
    [209, 229, 240],
    [247, 247, 247],
    [253, 219, 199],
    [244, 165, 130],
    [214, 96, 77],
    [178, 24, 43],
    [103, 0, 31],
];

/// The symmetric colour range [−limit, +limit].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// Always positive and finite.
    pub limit: f32,
}

impl Range {
    /// A range of the given half-width (non-positive or non-finite limits become 1).
    pub fn new(limit: f32) -> Range {
        if limit.is_finite() && limit > 0.0 {
            Range { limit }
        } else {
            Range { limit: 1.0 }
        }
    }

    /// The range holding the [`PERCENTILE`] share of the finite |v|: robust to a few outliers.
    /// With no finite non-zero value the range is [−1, 1].
    pub fn robust(values: &[f32]) -> Range {
        let mut mags: Vec<f32> = values.iter().filter(|v| v.is_finite()).map(|v| v.abs()).collect();
        if mags.is_empty() {
            return Range::new(1.0);
        }
        let rank = ((PERCENTILE * mags.len() as f64).ceil() as usize).clamp(1, mags.len()) - 1;
        let (_, nth, _) = mags.select_nth_unstable_by(rank, f32::total_cmp);
        let limit = *nth;
        if limit > 0.0 {
            Range::new(limit)
        } else {
            // Mostly zeros: fall back to the largest magnitude so the few non-zeros still show.
            Range::new(mags.iter().copied().fold(0.0, f32::max))
        }
    }

    /// v scaled to [−1, 1] (clamped).
    pub fn unit(&self, v: f32) -> f32 {
        (v / self.limit).clamp(-1.0, 1.0)
    }
}

/// The colour of `v` under `range`; NaN is [`NAN`], ±∞ and out-of-range values clamp.
pub fn color(v: f32, range: Range) -> Rgb {
    if v.is_nan() {
        return NAN;
    }
    let t = (range.unit(v) + 1.0) * 0.5 * (ANCHORS.len() - 1) as f32;
    let i = (t.floor() as usize).min(ANCHORS.len() - 2);
    let f = t - i as f32;
    let (a, b) = (ANCHORS[i], ANCHORS[i + 1]);
    std::array::from_fn(|c| (a[c] as f32 + (b[c] as f32 - a[c] as f32) * f).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_white_and_the_ends_are_blue_and_red() {
        let r = Range::new(2.0);
        assert_eq!(color(0.0, r), [247, 247, 247]);
        assert_eq!(color(-2.0, r), ANCHORS[0]);
        assert_eq!(color(2.0, r), ANCHORS[10]);
        assert_eq!(color(1e9, r), ANCHORS[10]);
        assert_eq!(color(f32::NEG_INFINITY, r), ANCHORS[0]);
        assert_eq!(color(f32::NAN, r), NAN);
    }

    #[test]
    fn positive_is_redder_than_negative() {
        let r = Range::new(1.0);
        for k in 1..=100 {
            let v = k as f32 / 100.0;
            let (p, n) = (color(v, r), color(-v, r));
            assert!(p[0] > p[2] && n[2] > n[0], "v={v}: {p:?} {n:?}");
        }
    }

    #[test]
    fn never_produces_nan_colour_for_finite_values() {
        let r = Range::new(1.0);
        for k in -1000..=1000 {
            assert_ne!(color(k as f32 / 500.0, r), NAN);
        }
    }

    #[test]
    fn robust_range_ignores_a_few_outliers() {
        let mut v: Vec<f32> = (0..1000).map(|k| (k as f32 / 500.0) - 1.0).collect();
        v.extend([1e6, -1e7, f32::NAN, f32::INFINITY]);
        let r = Range::robust(&v);
        assert!(r.limit <= 1.0 && r.limit > 0.9, "{r:?}");
        // A small set keeps its maximum.
        assert_eq!(Range::robust(&[0.5, -3.0, 1.0]).limit, 3.0);
    }

    #[test]
    fn degenerate_inputs_give_a_unit_range() {
        assert_eq!(Range::robust(&[]).limit, 1.0);
        assert_eq!(Range::robust(&[0.0; 10]).limit, 1.0);
        assert_eq!(Range::robust(&[f32::NAN]).limit, 1.0);
        // Mostly zeros: the few non-zeros still set the range.
        let mut v = vec![0.0f32; 1000];
        v[3] = 4.0;
        assert_eq!(Range::robust(&v).limit, 4.0);
    }
}
