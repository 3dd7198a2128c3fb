//! Generated cover art: every game's cover, vertical poster, square tile and logo, and the
//! default avatars, drawn as SVG from the game's id, hue and name (no borrowed artwork).

use actix_web::{get, http::header, web, HttpResponse};

use crate::envelope::{refusals, ApiError};
use crate::state::AppState;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A small deterministic generator so each game's shapes are its own.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *seed >> 33
}

pub fn cover_svg(id: i64, hue: i32, name: &str, shape: &str) -> Option<String> {
    let (w, h) = match shape {
        "cover" => (640, 360),
        "vertical" => (360, 480),
        "square" | "logo" => (256, 256),
        _ => return None,
    };
    let mut seed = id as u64 ^ 0x9e37_79b9_7f4a_7c15;
    let h2 = (hue + 40) % 360;
    let mut shapes = String::new();
    for i in 0..9 {
        let x = lcg(&mut seed) % w as u64;
        let y = lcg(&mut seed) % h as u64;
        let r = 10 + lcg(&mut seed) % (h as u64 / 3);
        let a = 0.08 + (i as f64) * 0.015;
        shapes.push_str(&format!(
            r#"<circle cx="{x}" cy="{y}" r="{r}" fill="hsl({},80%,70%)" opacity="{a:.2}"/>"#,
            (hue + (i * 17)) % 360
        ));
    }
    let ridge: String = (0..=8)
        .map(|i| format!("{},{} ", i * w / 8, h * 2 / 3 + (lcg(&mut seed) % (h as u64 / 5)) as i32))
        .collect();
    let title = if shape == "logo" {
        let first: String = name.chars().next().map(String::from).unwrap_or_default();
        format!(
            r#"<text x="50%" y="58%" font-size="120" text-anchor="middle" dominant-baseline="middle" fill="white" font-family="sans-serif" font-weight="700">{}</text>"#,
            esc(&first)
        )
    } else {
        let size = if shape == "cover" { 44 } else { 34 };
        format!(
            r#"<text x="24" y="{}" font-size="{size}" fill="white" font-family="sans-serif" font-weight="700" style="paint-order:stroke" stroke="rgba(0,0,0,.35)" stroke-width="4">{}</text>"#,
            h - 28,
            esc(name)
        )
    };
    Some(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl({hue},70%,35%)"/><stop offset="1" stop-color="hsl({h2},75%,15%)"/></linearGradient></defs><rect width="{w}" height="{h}" fill="url(#g)"/>{shapes}<polygon points="0,{h} {ridge}{w},{h}" fill="hsl({h2},60%,10%)" opacity=".7"/>{title}</svg>"#
    ))
}

fn svg(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(body)
}

refusals!(CoverRefusals: common::input(), common::internal(), DomainError::UnknownGame);

/// A game's art: `cover.svg`, `vertical.svg`, `square.svg` or `logo.svg`.
#[utoipa::path(params(("id" = String, Path, description = "The game", example = "1"), ("file" = String, Path, description = "cover.svg, vertical.svg, square.svg or logo.svg", example = "logo.svg")),
    responses((status = 200, description = "SVG", body = String, content_type = "image/svg+xml"), CoverRefusals))]
#[get("/covers/{id}/{file}")]
pub async fn game_cover(state: web::Data<AppState>, path: web::Path<(String, String)>) -> Result<HttpResponse, ApiError> {
    let (id, file) = path.into_inner();
    let shape = file.strip_suffix(".svg").unwrap_or("");
    let id: i64 = id.parse().map_err(|_| actors::DomainError::UnknownGame)?;
    let game = state.platform.play.game(id).await?;
    let body = cover_svg(game.id, game.hue, &game.name, shape).ok_or(actors::DomainError::UnknownGame)?;
    Ok(svg(body))
}

/// A default avatar: `{uid}.svg`.
#[utoipa::path(params(("file" = String, Path)), responses((status = 200, description = "SVG", body = String, content_type = "image/svg+xml")))]
#[get("/covers/avatar/{file}")]
pub async fn avatar(path: web::Path<String>) -> HttpResponse {
    let uid: i64 = path.trim_end_matches(".svg").parse().unwrap_or(0);
    let hue = (uid * 47).rem_euclid(360);
    svg(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="hsl({hue},60%,45%)"/><circle cx="48" cy="38" r="18" fill="white" opacity=".9"/><path d="M16 84c6-18 20-26 32-26s26 8 32 26" fill="white" opacity=".9"/></svg>"#
    ))
}
