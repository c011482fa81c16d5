//! Line charts of benchmark series, written as PNG (for reading anywhere) and SVG (for scaling).
//! Text is laid out with an embedded DejaVu Sans, so no system font is needed.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// One named series of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const SIZE: (u32, u32) = (720, 440);
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

/// Draws `series` into `stem`.png and `stem`.svg, y on a log scale when `log_y`.
/// Points with a non-finite or non-positive y are left out; no points, no files.
pub fn line_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_y: bool,
) -> Result<(), String> {
    register_font()?;
    let chart = Chart { title, x_label, y_label, series, log_y };
    let svg = stem.with_extension("svg");
    chart.draw(SVGBackend::new(&svg, SIZE).into_drawing_area(), &svg)?;
    let png = stem.with_extension("png");
    let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    chart.draw(BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area(), &png)?;
    image::RgbImage::from_raw(SIZE.0, SIZE.1, rgb)
        .ok_or_else(|| format!("{}: pixel buffer of the wrong size", png.display()))?
        .save(&png)
        .map_err(|e| format!("{}: {e}", png.display()))
}

struct Chart<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    series: &'a [Series],
    log_y: bool,
}

fn plotted(s: &Series) -> Vec<(f64, f64)> {
    s.points.iter().copied().filter(|p| p.1.is_finite() && p.1 > 0.0).collect()
}

impl Chart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>, path: &Path) -> Result<(), String> {
        let pts: Vec<(f64, f64)> = self.series.iter().flat_map(plotted).collect();
        if pts.is_empty() {
            return Ok(());
        }
        let (x0, x1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let pad = |a: f64, b: f64| if a == b { (a * 0.5, b * 1.5 + 1e-12) } else { (a, b) };
        let (x0, x1) = pad(x0, x1);
        let (y0, y1) = pad(y0, y1);
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("{}: {e}", path.display());
        root.fill(&WHITE).map_err(err)?;
        let mut builder = ChartBuilder::on(&root);
        builder.caption(self.title, ("sans-serif", 18)).margin(12).x_label_area_size(40).y_label_area_size(70);
        let palette = [
            &BLUE,
            &RED,
            &GREEN,
            &MAGENTA,
            &CYAN,
            &BLACK,
            &RGBColor(230, 140, 0),
            &RGBColor(120, 60, 160),
            &RGBColor(140, 90, 40),
            &RGBColor(128, 128, 128),
        ];
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart.configure_mesh().x_desc(self.x_label).y_desc(self.y_label).draw().map_err(err)?;
                for (n, s) in self.series.iter().enumerate() {
                    let color = palette[n % palette.len()];
                    let points = plotted(s);
                    chart
                        .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                        .map_err(err)?
                        .label(s.name.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
                    chart.draw_series(points.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(err)?;
                }
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(err)?;
            }};
        }
        if self.log_y {
            draw!(builder.build_cartesian_2d(x0..x1, (y0 * 0.8..y1 * 1.25).log_scale()).map_err(err)?);
        } else {
            draw!(builder.build_cartesian_2d(x0..x1, 0.0..y1 * 1.1).map_err(err)?);
        }
        root.present().map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_with_the_curve_and_an_svg() {
        let dir = std::env::temp_dir().join(format!("glsolve-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stem = dir.join("chart");
        let s = Series { name: "t".into(), points: vec![(1.0, 1.0), (2.0, 4.0), (3.0, 9.0)] };
        line_chart(&stem, "title", "x", "y", &[s], true).unwrap();
        let img = image::open(stem.with_extension("png")).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), SIZE);
        // The first series is blue: some pixels must be (mostly) blue, and text must be drawn (black).
        let blue = img.pixels().filter(|p| p[2] > 200 && p[0] < 80 && p[1] < 80).count();
        let dark = img.pixels().filter(|p| p[0] < 60 && p[1] < 60 && p[2] < 60).count();
        assert!(blue > 100, "{blue} blue pixels");
        assert!(dark > 200, "{dark} dark pixels");
        let svg = std::fs::read_to_string(stem.with_extension("svg")).unwrap();
        assert!(svg.contains("<svg") && svg.contains("title"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
