//! `plot-scaling`: draws `docs/scaling.png`, milliseconds per round against units on log-log
//! axes, from the CSV files `fray bench --csv` writes (`field,ai,units,ms_per_round`), one file
//! per build measured (before and after a change), with a line of slope one for linear growth.
//! Drawn with plotters' bitmap backend; the text is set with `ab_glyph` in a font bundled here,
//! so it needs no system fonts.

use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::*;

/// The font every label is drawn in (Hack, MIT and Bitstream Vera licences: `fonts/Hack-Regular.txt`).
const FONT: &[u8] = include_bytes!("../fonts/Hack-Regular.ttf");
/// Size of the picture in pixels.
const SIZE: (u32, u32) = (960, 640);
/// Colours of the series, in the order the (field, ai) pairs first appear (Okabe-Ito).
const PALETTE: [RGBColor; 4] =
    [RGBColor(0, 114, 178), RGBColor(213, 94, 0), RGBColor(0, 158, 115), RGBColor(204, 121, 167)];

/// One measurement: field, AI, units, milliseconds per round.
type Row = (String, String, f64, f64);

/// What `plot-scaling` was asked to do: labelled CSV files and where to write the picture.
pub struct PlotTask {
    /// `(label, csv file)`, e.g. `("before", "before.csv")`.
    pub inputs: Vec<(String, PathBuf)>,
    /// The PNG to write.
    pub out: PathBuf,
}

/// Reads one `fray bench --csv` file.
fn read_rows(path: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let number = |field: &str| field.trim().parse::<f64>().ok();
            match fields.as_slice() {
                [field, ai, units, ms] if number(units).is_some() && number(ms).is_some() => {
                    Ok((field.to_string(), ai.to_string(), number(units).unwrap_or(0.0), number(ms).unwrap_or(0.0)))
                }
                _ => Err(format!("{}:{}: expected `field,ai,units,ms_per_round`, found `{line}`", path.display(), at + 1)),
            }
        })
        .collect()
}

/// Draws the picture.
pub fn plot(task: &PlotTask) -> Result<(), String> {
    let font = FontRef::try_from_slice(FONT).map_err(|_| "the bundled font does not load".to_string())?;
    let mut series: Vec<Series> = Vec::new();
    for (label, path) in &task.inputs {
        for (field, ai, units, ms) in read_rows(path)? {
            let name = format!("{field} {ai}");
            match series.iter_mut().find(|(l, n, _)| l == label && *n == name) {
                Some((_, _, points)) => points.push((units, ms)),
                None => series.push((label.clone(), name, vec![(units, ms)])),
            }
        }
    }
    if series.is_empty() {
        return Err("no measurements to plot".into());
    }
    let (mut low, mut high, mut fewest, mut most) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(units, ms) in series.iter().flat_map(|(_, _, points)| points.iter()) {
        (low, high, fewest, most) = (low.min(ms), high.max(ms), fewest.min(units), most.max(units));
    }
    let ranges = ((fewest / 1.25, most * 1.25), (10f64.powf(low.log10().floor()), 10f64.powf(high.log10().ceil())));
    let mut pixels = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    let labels = draw(&mut pixels, &series, ranges).map_err(|error| error.to_string())?;
    for (text, (x, y), size) in labels {
        write_text(&mut pixels, &font, &text, (x, y), size);
    }
    save_png(&task.out, &pixels)
}

/// One line of the plot: label (before, after), name (field and AI), points (units, ms).
type Series = (String, String, Vec<(f64, f64)>);
/// Text to write on the picture: what, where (left, baseline), and how big.
type Label = (String, (i32, i32), f32);

/// Draws axes, grid and lines; returns the text to write on top, since plotters here has no
/// font of its own.
fn draw(pixels: &mut [u8], series: &[Series], ranges: ((f64, f64), (f64, f64))) -> Result<Vec<Label>, Box<dyn std::error::Error>> {
    let ((x0, x1), (y0, y1)) = ranges;
    let root = BitMapBackend::with_buffer(pixels, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let area = root.margin(56, 64, 96, 24);
    let mut chart = ChartBuilder::on(&area).build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    chart.configure_mesh().disable_x_mesh().disable_y_mesh().draw()?;
    let mut labels: Vec<Label> = vec![("Fray: milliseconds per round against units (log-log)".into(), (96, 32), 24.0)];
    let grey = RGBColor(215, 215, 215);
    let mut tick = 1.0;
    while tick <= y1 {
        if tick >= y0 {
            chart.draw_series(LineSeries::new([(x0, tick), (x1, tick)], grey))?;
            let (_, y) = chart.backend_coord(&(x0, tick));
            labels.push((format!("{tick}"), (20, y + 5), 15.0));
        }
        tick *= 10.0;
    }
    let mut units = 8.0;
    while units <= x1 {
        if units >= x0 {
            chart.draw_series(LineSeries::new([(units, y0), (units, y1)], grey))?;
            let (x, y) = chart.backend_coord(&(units, y0));
            labels.push((format!("{units}"), (x - 16, y + 22), 15.0));
        }
        units *= 2.0;
    }
    labels.push(("units in the battle".into(), (SIZE.0 as i32 / 2 - 80, SIZE.1 as i32 - 12), 16.0));
    labels.push(("ms/round".into(), (8, 52), 15.0));
    let names: Vec<&String> = series.iter().fold(Vec::new(), |mut names, (_, name, _)| {
        if !names.contains(&name) {
            names.push(name);
        }
        names
    });
    for (at, (label, name, points)) in series.iter().enumerate() {
        let colour = PALETTE[names.iter().position(|other| *other == name).unwrap_or(0) % PALETTE.len()];
        let before = label == "before";
        let style = if before { colour.mix(0.4).stroke_width(2) } else { colour.stroke_width(3) };
        chart.draw_series(LineSeries::new(points.iter().copied(), style))?;
        chart.draw_series(points.iter().map(|&point| Circle::new(point, 4, colour.mix(if before { 0.4 } else { 1.0 }).filled())))?;
        let key_y = 72 + 22 * at as i32;
        root.draw(&PathElement::new(vec![(112, key_y - 5), (140, key_y - 5)], style))?;
        labels.push((format!("{name} ({label})"), (148, key_y), 15.0));
    }
    // Linear growth from the first point of the last series: where a linear engine would lie.
    if let Some(&(first_units, first_ms)) = series.last().and_then(|(_, _, points)| points.first()) {
        let dark = RGBColor(90, 90, 90);
        chart.draw_series(DashedLineSeries::new([(first_units, first_ms), (x1, first_ms * x1 / first_units)], 6, 4, dark.into()))?;
        let key_y = 72 + 22 * series.len() as i32;
        root.draw(&PathElement::new(vec![(112, key_y - 5), (140, key_y - 5)], dark))?;
        labels.push(("linear growth (slope 1)".into(), (148, key_y), 15.0));
    }
    root.present()?;
    Ok(labels)
}

/// Writes `text` in black with its baseline starting at `at`, blending the glyphs' coverage.
fn write_text(pixels: &mut [u8], font: &FontRef, text: &str, at: (i32, i32), size: f32) {
    let scaled = font.as_scaled(PxScale::from(size));
    let mut x = at.0 as f32;
    for character in text.chars() {
        let glyph = font.glyph_id(character).with_scale_and_position(size, ab_glyph::point(x, at.1 as f32));
        x += scaled.h_advance(glyph.id);
        let Some(outline) = font.outline_glyph(glyph) else { continue };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let (px, py) = (bounds.min.x as i32 + gx as i32, bounds.min.y as i32 + gy as i32);
            if px < 0 || py < 0 || px >= SIZE.0 as i32 || py >= SIZE.1 as i32 {
                return;
            }
            let at = (py as usize * SIZE.0 as usize + px as usize) * 3;
            for channel in &mut pixels[at..at + 3] {
                *channel = (f32::from(*channel) * (1.0 - coverage.clamp(0.0, 1.0))) as u8;
            }
        });
    }
}

/// Encodes the RGB picture as a PNG.
fn save_png(path: &Path, pixels: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|error| format!("{}: {error}", path.display()))?;
    writer.write_image_data(pixels).map_err(|error| format!("{}: {error}", path.display()))
}
