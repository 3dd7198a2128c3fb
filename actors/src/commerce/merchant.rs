//! The coupon group's pure rules (commerce.md §2.14, §4.5 "Merchant cart", §5): which cart
//! lines count, their tier prices and the total, and the redeem keys' form.

use super::tiers::{self, Tier};

/// The most coupons (keys) one group buys.
pub const MAX_GROUP_KEYS: i64 = 1000;

/// The alphabet of a redeem key: no 0/O, 1/I/L.
const KEY_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// One priced line of a cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub goods_id: i64,
    pub num: i64,
    /// fen, the tier's price.
    pub unit_price: i64,
    /// fen, the first tier's price (what one alone costs): the savings' base.
    pub retail_price: i64,
}

/// Why a cart is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CartFault {
    /// No line with a count above 0 (§5).
    Empty,
    /// A goods not on sale.
    UnknownGoods,
    /// A count no tier prices, a goods named twice, or more than `MAX_GROUP_KEYS` in all.
    Quantity,
}

/// Prices a cart: `(goods id, num)` as submitted, `tiers_of` the tiers of a goods on sale.
/// Lines of a count of 0 or less are left out (§5); the rest are priced by their tier. Returns
/// the lines and the total (fen).
pub fn price_cart<'a>(items: &[(i64, i64)], tiers_of: impl Fn(i64) -> Option<&'a [Tier]>) -> Result<(Vec<Line>, i64), CartFault> {
    let active: Vec<(i64, i64)> = items.iter().copied().filter(|(_, n)| *n > 0).collect();
    if active.is_empty() {
        return Err(CartFault::Empty);
    }
    let mut lines = Vec::with_capacity(active.len());
    let mut keys = 0i64;
    for (id, num) in active {
        if lines.iter().any(|l: &Line| l.goods_id == id) {
            return Err(CartFault::Quantity);
        }
        let t = tiers_of(id).ok_or(CartFault::UnknownGoods)?;
        let unit = tiers::unit_price(t, num);
        if unit <= 0 {
            return Err(CartFault::Quantity);
        }
        keys = keys.checked_add(num).ok_or(CartFault::Quantity)?;
        let retail = t.iter().map(|t| t.price).max().unwrap_or(unit);
        lines.push(Line {
            goods_id: id,
            num,
            unit_price: unit,
            retail_price: retail,
        });
    }
    if keys > MAX_GROUP_KEYS {
        return Err(CartFault::Quantity);
    }
    let total = tiers::cart_total(lines.iter().map(|l| (tiers_of(l.goods_id).unwrap_or(&[]), l.num))).ok_or(CartFault::Quantity)?;
    Ok((lines, total))
}

/// A new redeem key: 16 characters of the alphabet in groups of 4 (`XXXX-XXXX-XXXX-XXXX`),
/// about 79 random bits.
pub fn new_key(mut random: impl FnMut() -> u32) -> String {
    let mut out = String::with_capacity(19);
    for i in 0..16 {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        let c = KEY_ALPHABET[(random() as usize) % KEY_ALPHABET.len()];
        out.push(char::from(c));
    }
    out
}

/// A key as typed: blanks and dashes dropped, upper case, grouped again; None when it cannot
/// be a key.
pub fn normalize_key(typed: &str) -> Option<String> {
    let chars: Vec<char> = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if chars.len() != 16 || !chars.iter().all(|c| c.is_ascii() && KEY_ALPHABET.contains(&(*c as u8))) {
        return None;
    }
    let mut out = String::with_capacity(19);
    for (i, c) in chars.into_iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiers() -> Vec<Tier> {
        vec![
            Tier {
                min_num: 1,
                max_num: 9,
                price: 900,
            },
            Tier {
                min_num: 10,
                max_num: 99,
                price: 800,
            },
            Tier {
                min_num: 100,
                max_num: 999,
                price: 700,
            },
        ]
    }

    #[test]
    fn a_cart_priced_by_tiers() {
        let t = tiers();
        let of = |id: i64| (id == 1 || id == 2).then_some(&t[..]);
        let (lines, total) = price_cart(&[(1, 10), (2, 0), (2, 3)], of).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].unit_price, lines[1].unit_price), (800, 900));
        assert_eq!(total, 10 * 800 + 3 * 900);
        assert_eq!(lines[0].retail_price, 900);
        assert_eq!(price_cart(&[(1, 0), (2, -1)], of), Err(CartFault::Empty));
        assert_eq!(price_cart(&[], of), Err(CartFault::Empty));
        assert_eq!(price_cart(&[(3, 1)], of), Err(CartFault::UnknownGoods));
        assert_eq!(price_cart(&[(1, 1000)], of), Err(CartFault::Quantity), "no tier");
        assert_eq!(price_cart(&[(1, 1), (1, 2)], of), Err(CartFault::Quantity), "twice");
        assert_eq!(price_cart(&[(1, 600), (2, 500)], of), Err(CartFault::Quantity), "over 1000 keys");
        assert!(price_cart(&[(1, 500), (2, 500)], of).is_ok());
    }

    #[test]
    fn keys_are_grouped_and_typed_loosely() {
        let mut n = 0u32;
        let k = new_key(|| {
            n += 7;
            n
        });
        assert_eq!(k.len(), 19);
        assert_eq!(k.matches('-').count(), 3);
        assert_eq!(normalize_key(&k.to_lowercase().replace('-', " ")), Some(k.clone()));
        assert_eq!(normalize_key(&k), Some(k));
        assert_eq!(normalize_key("ABCD"), None);
        assert_eq!(normalize_key("0000-0000-0000-0000"), None, "no zero in the alphabet");
        assert_eq!(normalize_key("ＡＢＣＤ-ABCD-ABCD-ABCD"), None);
    }
}
