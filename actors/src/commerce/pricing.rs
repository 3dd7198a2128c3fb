//! Pricing (commerce.md §4.5) as plain functions over integer fen.
//!
//! The price of a purchase, by precedence: the coupon-group total, the coupon price, the
//! auto-renew first price (`external.first_price`, first period only), the unit price × count.
//! The unit price is the member price only for a holder of the member-price privilege
//! (`discount_goods`) and only when it is above 0 and below the retail price (the stricter of
//! the spec's two readings: a member price above retail is never charged). Savings = retail ×
//! count − price, never below 0.

/// What a price is computed from; all amounts in fen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PriceInput {
    pub retail: i64,
    /// 0: none.
    pub member_price: i64,
    /// The auto-renew first-period price (0: none), applied when `first_period`.
    pub first_price: i64,
    /// The buyer has never had this auto-renew goods: the first price applies.
    pub first_period: bool,
    pub count: i64,
    /// The buyer holds the member-price privilege (discount_goods).
    pub member_privilege: bool,
    /// The price after a coupon, when one applies.
    pub coupon_price: Option<i64>,
    /// A coupon group's total, when buying one.
    pub group_total: Option<i64>,
}

/// A computed price; all amounts in fen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Price {
    /// The unit price used for unit × count.
    pub unit: i64,
    /// Retail × count.
    pub retail_total: i64,
    /// What is paid.
    pub pay: i64,
    /// `retail_total - pay`, at least 0.
    pub savings: i64,
}

/// The unit price a buyer pays.
pub fn unit_price(retail: i64, member_price: i64, member_privilege: bool) -> i64 {
    if member_privilege && member_price > 0 && member_price < retail {
        member_price
    } else {
        retail
    }
}

/// The price of a purchase; None when an amount overflows.
pub fn price(p: &PriceInput) -> Option<Price> {
    let unit = unit_price(p.retail, p.member_price, p.member_privilege);
    let retail_total = p.retail.checked_mul(p.count)?;
    let pay = if let Some(total) = p.group_total {
        total
    } else if let Some(c) = p.coupon_price {
        c
    } else if p.first_period && p.first_price > 0 {
        p.first_price
    } else {
        unit.checked_mul(p.count)?
    };
    Some(Price {
        unit,
        retail_total,
        pay,
        savings: retail_total.saturating_sub(pay).max(0),
    })
}

/// What a membership of `months` months costs a month, fen, rounded down (0 for a goods that is
/// not sold by the month); the purchase dialog's "¥x/月".
pub fn month_price(retail: i64, months: i64) -> i64 {
    if months > 0 {
        retail / months
    } else {
        0
    }
}

/// Fen as yuan with two decimals ("12.50").
pub fn yuan(fen: i64) -> String {
    let sign = if fen < 0 { "-" } else { "" };
    let f = fen.unsigned_abs();
    format!("{sign}{}.{:02}", f / 100, f % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_price_is_retail_over_months_rounded_down() {
        assert_eq!(month_price(3000, 3), 1000);
        assert_eq!(month_price(1000, 3), 333);
        assert_eq!(month_price(1000, 0), 0);
        assert_eq!(month_price(1000, -1), 0);
    }

    fn check(input: PriceInput, expected: (i64, i64, i64)) {
        let p = price(&input).expect("no overflow");
        assert_eq!((p.unit, p.pay, p.savings), expected, "{input:?}");
        assert_eq!(p.retail_total, input.retail * input.count);
    }

    // The precedence of §4.5 and the member-price rule, one case a row.
    #[test]
    fn precedence_and_member_price() {
        let base = PriceInput {
            retail: 1000,
            member_price: 900,
            count: 2,
            ..Default::default()
        };
        // unit × count, no privilege: retail.
        check(base, (1000, 2000, 0));
        // the privilege gives the member price.
        check(
            PriceInput {
                member_privilege: true,
                ..base
            },
            (900, 1800, 200),
        );
        // a member price at or above retail is never used.
        check(
            PriceInput {
                member_privilege: true,
                member_price: 1000,
                ..base
            },
            (1000, 2000, 0),
        );
        check(
            PriceInput {
                member_privilege: true,
                member_price: 1200,
                ..base
            },
            (1000, 2000, 0),
        );
        check(
            PriceInput {
                member_privilege: true,
                member_price: 0,
                ..base
            },
            (1000, 2000, 0),
        );
        // the first price beats unit × count, only in the first period.
        let renew = PriceInput {
            retail: 4500,
            first_price: 3000,
            count: 1,
            ..Default::default()
        };
        check(
            PriceInput {
                first_period: true,
                ..renew
            },
            (4500, 3000, 1500),
        );
        check(renew, (4500, 4500, 0));
        // the coupon price beats the first price.
        check(
            PriceInput {
                first_period: true,
                coupon_price: Some(2500),
                ..renew
            },
            (4500, 2500, 2000),
        );
        // the group total beats everything.
        check(
            PriceInput {
                first_period: true,
                coupon_price: Some(2500),
                group_total: Some(100),
                ..renew
            },
            (4500, 100, 4400),
        );
        // savings never go below zero.
        check(
            PriceInput {
                group_total: Some(9000),
                ..renew
            },
            (4500, 9000, 0),
        );
        assert_eq!(
            price(&PriceInput {
                retail: i64::MAX,
                count: 2,
                ..Default::default()
            }),
            None
        );
    }

    #[test]
    fn yuan_has_two_decimals() {
        for (fen, text) in [(0, "0.00"), (5, "0.05"), (1250, "12.50"), (100, "1.00"), (-30, "-0.30")] {
            assert_eq!(yuan(fen), text);
        }
    }
}
