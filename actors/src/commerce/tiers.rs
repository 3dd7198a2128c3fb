//! The merchant cart's tier pricing (commerce.md §4.5 "Merchant cart") as plain functions over
//! fen: a goods' unit price is the tier whose `min_num ≤ count ≤ max_num` (0 when none
//! matches); the cart's total is the sum of unit × count over the items with a count above 0.

/// One price tier of a merchant goods, fen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    pub min_num: i64,
    pub max_num: i64,
    pub price: i64,
}

/// The unit price of `count` by the tiers (the first that matches), 0 when none matches.
pub fn unit_price(tiers: &[Tier], count: i64) -> i64 {
    tiers
        .iter()
        .find(|t| t.min_num <= count && count <= t.max_num)
        .map_or(0, |t| t.price)
}

/// The total of a cart of (tiers, count) items, fen; items with a count of 0 or less do not
/// count; None when an amount overflows or an active item matches no tier.
pub fn cart_total<'a>(items: impl IntoIterator<Item = (&'a [Tier], i64)>) -> Option<i64> {
    let mut total: i64 = 0;
    for (tiers, count) in items {
        if count <= 0 {
            continue;
        }
        let unit = unit_price(tiers, count);
        if unit <= 0 {
            return None;
        }
        total = total.checked_add(unit.checked_mul(count)?)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIERS: [Tier; 3] = [
        Tier {
            min_num: 1,
            max_num: 9,
            price: 1000,
        },
        Tier {
            min_num: 10,
            max_num: 99,
            price: 900,
        },
        Tier {
            min_num: 100,
            max_num: 1000,
            price: 800,
        },
    ];

    #[test]
    fn the_tier_of_the_count() {
        for (count, unit) in [
            (0, 0),
            (1, 1000),
            (9, 1000),
            (10, 900),
            (99, 900),
            (100, 800),
            (1000, 800),
            (1001, 0),
            (-3, 0),
        ] {
            assert_eq!(unit_price(&TIERS, count), unit, "{count}");
        }
        assert_eq!(unit_price(&[], 5), 0);
    }

    #[test]
    fn the_cart_total_counts_active_items() {
        let other = [Tier {
            min_num: 5,
            max_num: 50,
            price: 250,
        }];
        assert_eq!(cart_total([(&TIERS[..], 10), (&other[..], 0), (&other[..], -1)]), Some(9000));
        assert_eq!(cart_total([(&TIERS[..], 2), (&other[..], 5)]), Some(2000 + 1250));
        assert_eq!(cart_total([(&other[..], 4)]), None, "no tier for 4");
        assert_eq!(cart_total(std::iter::empty()), Some(0));
        let huge = [Tier {
            min_num: 1,
            max_num: i64::MAX,
            price: i64::MAX,
        }];
        assert_eq!(cart_total([(&huge[..], 2)]), None);
    }
}
