//! Line charts of benchmark series as SVG (text needs no font files in SVG).

use plotters::prelude::*;
use std::path::Path;

/// One named series of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Draws `series` into an SVG at `path`, y on a log scale when `log_y`.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_y: bool,
) -> Result<(), String> {
    let pts: Vec<(f64, f64)> =
        series.iter().flat_map(|s| s.points.iter().copied()).filter(|p| p.1.is_finite() && p.1 > 0.0).collect();
    if pts.is_empty() {
        return Ok(());
    }
    let (x0, x1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = |a: f64, b: f64| if a == b { (a * 0.5, b * 1.5 + 1e-12) } else { (a, b) };
    let (x0, x1) = pad(x0, x1);
    let (y0, y1) = pad(y0, y1);
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    let err = |e: DrawingAreaErrorKind<std::io::Error>| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(err)?;
    let mut builder = ChartBuilder::on(&root);
    builder.caption(title, ("sans-serif", 18)).margin(12).x_label_area_size(40).y_label_area_size(70);
    let palette = [&BLUE, &RED, &GREEN, &MAGENTA, &CYAN, &BLACK, &RGBColor(230, 140, 0), &RGBColor(120, 60, 160)];
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart.configure_mesh().x_desc(x_label).y_desc(y_label).draw().map_err(err)?;
            for (n, s) in series.iter().enumerate() {
                let color = palette[n % palette.len()];
                let points: Vec<(f64, f64)> =
                    s.points.iter().copied().filter(|p| p.1.is_finite() && p.1 > 0.0).collect();
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
    if log_y {
        draw!(builder.build_cartesian_2d(x0..x1, (y0 * 0.8..y1 * 1.25).log_scale()).map_err(err)?);
    } else {
        draw!(builder.build_cartesian_2d(x0..x1, 0.0..y1 * 1.1).map_err(err)?);
    }
    root.present().map_err(err)?;
    Ok(())
}
