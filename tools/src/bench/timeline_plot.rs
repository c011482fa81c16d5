//! Timeline (Gantt) charts of one phase of a solve: one row per lane (CPU work, transfers, GPU
//! passes in flight), one bar per recorded span, so the overlap of host and GPU work is visible.
//! Written as PNG and SVG like the line charts of [`super::plots`], with the embedded font.

use glsolve::gpu::lu::timeline::{Lane, Span};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

const SIZE: (u32, u32) = (900, 300);
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

fn register_font() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .map_err(|_| "the embedded DejaVu Sans font could not be read".to_string());
    });
    result
}

const LANES: [(Lane, &str); 3] = [(Lane::Cpu, "CPU"), (Lane::Transfer, "transfer"), (Lane::Gpu, "GPU")];

fn row(lane: Lane) -> f64 {
    match lane {
        Lane::Cpu => 2.0,
        Lane::Transfer => 1.0,
        Lane::Gpu => 0.0,
    }
}

fn color(lane: Lane, step: u32) -> RGBColor {
    // Alternate two shades per lane so consecutive steps are told apart.
    let dark = step.is_multiple_of(2);
    match (lane, dark) {
        (Lane::Cpu, true) => RGBColor(33, 102, 172),
        (Lane::Cpu, false) => RGBColor(103, 169, 207),
        (Lane::Transfer, true) => RGBColor(120, 120, 120),
        (Lane::Transfer, false) => RGBColor(180, 180, 180),
        (Lane::Gpu, true) => RGBColor(178, 24, 43),
        (Lane::Gpu, false) => RGBColor(239, 138, 98),
    }
}

/// Draws `spans` (times in seconds, shown in ms from the first start) into `stem`.png/.svg.
/// No spans, no files.
pub fn timeline_chart(stem: &Path, title: &str, spans: &[&Span]) -> Result<(), String> {
    if spans.is_empty() {
        return Ok(());
    }
    register_font()?;
    let svg = stem.with_extension("svg");
    draw(SVGBackend::new(&svg, SIZE).into_drawing_area(), &svg, title, spans)?;
    let png = stem.with_extension("png");
    let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    draw(BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area(), &png, title, spans)?;
    image::RgbImage::from_raw(SIZE.0, SIZE.1, rgb)
        .ok_or_else(|| format!("{}: pixel buffer of the wrong size", png.display()))?
        .save(&png)
        .map_err(|e| format!("{}: {e}", png.display()))
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    path: &Path,
    title: &str,
    spans: &[&Span],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("{}: {e}", path.display());
    let t0 = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
    let t1 = spans.iter().map(|s| s.end).fold(f64::NEG_INFINITY, f64::max);
    let ms = |t: f64| (t - t0) * 1e3;
    let width = ms(t1).max(1e-3);
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..width * 1.02, -0.5..2.5)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("milliseconds")
        .y_labels(3)
        .y_label_formatter(&|y: &f64| {
            LANES.iter().find(|(l, _)| (row(*l) - *y).abs() < 0.25).map_or(String::new(), |(_, n)| n.to_string())
        })
        .disable_y_mesh()
        .draw()
        .map_err(err)?;
    chart
        .draw_series(spans.iter().map(|s| {
            let y = row(s.lane);
            // A span shorter than a pixel still shows as a sliver.
            let end = ms(s.end).max(ms(s.start) + width * 1e-3);
            Rectangle::new([(ms(s.start), y - 0.35), (end, y + 0.35)], color(s.lane, s.step).filled())
        }))
        .map_err(err)?;
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_bar_per_lane_in_its_colour() {
        let dir = std::env::temp_dir().join(format!("glsolve-timeline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let span = |lane, start, end| Span {
            phase: "factor".into(),
            iteration: 0,
            step: 0,
            lane,
            what: String::new(),
            start,
            end,
        };
        let spans = [span(Lane::Cpu, 0.0, 0.004), span(Lane::Gpu, 0.002, 0.01), span(Lane::Transfer, 0.004, 0.005)];
        let refs: Vec<&Span> = spans.iter().collect();
        timeline_chart(&dir.join("t"), "test", &refs).unwrap();
        let img = image::open(dir.join("t.png")).unwrap().to_rgb8();
        let count = |c: RGBColor| img.pixels().filter(|p| p[0] == c.0 && p[1] == c.1 && p[2] == c.2).count();
        assert!(count(color(Lane::Cpu, 0)) > 500, "CPU bar");
        assert!(count(color(Lane::Gpu, 0)) > 2 * count(color(Lane::Cpu, 0)), "the GPU bar is twice as long");
        assert!(count(color(Lane::Transfer, 0)) > 100, "transfer bar");
        std::fs::remove_dir_all(&dir).ok();
    }
}
