//! The rules of the ad slots (commerce.md §2.15) and of the app's first-login gift, as plain
//! functions: what an operator may set, which ad a purchase may name, when a user is out of an
//! ad's pay times, which user agent is the product's app.

use storage::ads::{Ad, AdSpec};

/// An ad-click action that buys a goods by its code (commerce.md §2.15): the section ads.
pub const TARGET_GOODS_CODE: i32 = 5;
/// The most items a slot holds, and the most slots one read asks for.
pub const MAX_ITEMS: usize = 20;
pub const MAX_SLOTS: usize = 16;

/// A slot key: 1–40 of `a-z`, `0-9`, `_`.
pub fn slot_key_ok(key: &str) -> bool {
    (1..=40).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// An image address the page may load under its CSP: empty, or a path of this site.
fn image_ok(image: &str) -> bool {
    image.is_empty()
        || (image.starts_with('/') && !image.starts_with("//") && image.len() <= 300 && !image.contains(['"', '\'', ' ', '\\']))
}

/// Why an operator's item is refused, or None when it may be stored.
pub fn spec_fault(s: &AdSpec) -> Option<&'static str> {
    let chars = |t: &str| t.chars().count();
    if s.title.trim().is_empty() || chars(&s.title) > 60 || s.title.chars().any(char::is_control) {
        return Some("title");
    }
    if chars(&s.target_title) > 60 || s.target_title.chars().any(char::is_control) {
        return Some("target_title");
    }
    if !image_ok(&s.image) {
        return Some("image");
    }
    if !(0..=5).contains(&s.target_type) {
        return Some("target_type");
    }
    if s.target_value.trim().is_empty() || chars(&s.target_value) > 500 {
        return Some("target_value");
    }
    if s.start_at < 0 || s.end_at < 0 || (s.end_at != 0 && s.end_at <= s.start_at) {
        return Some("times");
    }
    if !(0..=1000).contains(&s.pay_times) || (s.pay_times > 0 && s.target_type != TARGET_GOODS_CODE) {
        // a limit counts purchases of the goods the ad buys: only a section ad has one
        return Some("pay_times");
    }
    None
}

/// Whether a purchase of the goods `goods_code` may name this ad at `now`: a running section
/// ad of that goods.
pub fn buys(ad: &Ad, goods_code: &str, now: i64) -> bool {
    ad.live(now) && ad.spec.target_type == TARGET_GOODS_CODE && ad.spec.target_value == goods_code
}

/// Whether a user who made `used` orders through an ad of limit `pay_times` is out of them.
pub fn out_of_pay_times(pay_times: i64, used: i64) -> bool {
    pay_times > 0 && used >= pay_times
}

/// What the user agent of the product's own apps' web views carries (core-platform.md §5.5). The
/// client's browser check reads the same list from the OpenAPI document (schema `OwnAppMarker`).
pub const OWN_APP_MARKERS: [&str; 3] = ["agentWeb", "slyAndroid", "leyou_ios"];

/// Whether a user agent is one of the product's own apps' web views (any case).
pub fn is_own_app(user_agent: &str) -> bool {
    let ua = user_agent.to_ascii_lowercase();
    OWN_APP_MARKERS.iter().any(|m| ua.contains(&m.to_ascii_lowercase()))
}

/// `first_login_app_playtime` of a profile: the configured minutes while the user has never
/// logged in from the app; 0 after, or when none are configured.
pub fn app_playtime(configured: i64, logged_in_from_app: bool) -> i64 {
    if logged_in_from_app {
        0
    } else {
        configured.max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(target_type: i32, value: &str, pay_times: i64) -> AdSpec {
        AdSpec {
            id: None,
            title: "限时加速卡".into(),
            target_title: String::new(),
            image: String::new(),
            target_type,
            target_value: value.into(),
            need_login: true,
            sort_order: 0,
            start_at: 0,
            end_at: 0,
            pay_times,
        }
    }

    #[test]
    fn what_an_operator_may_set() {
        let check = |s: AdSpec, want: Option<&str>| assert_eq!(spec_fault(&s), want, "{s:?}");
        check(spec(5, "useup_60", 2), None);
        check(spec(3, "buyMember", 0), None);
        check(spec(3, "buyMember", 1), Some("pay_times"));
        check(spec(5, "useup_60", -1), Some("pay_times"));
        check(spec(6, "x", 0), Some("target_type"));
        check(spec(5, " ", 0), Some("target_value"));
        check(
            AdSpec {
                title: " ".into(),
                ..spec(5, "a", 0)
            },
            Some("title"),
        );
        check(
            AdSpec {
                image: "//evil/x.png".into(),
                ..spec(5, "a", 0)
            },
            Some("image"),
        );
        check(
            AdSpec {
                image: "https://cdn/x.png".into(),
                ..spec(5, "a", 0)
            },
            Some("image"),
        );
        check(
            AdSpec {
                image: "/ads/time.svg".into(),
                ..spec(5, "a", 0)
            },
            None,
        );
        check(
            AdSpec {
                start_at: 10,
                end_at: 10,
                ..spec(5, "a", 0)
            },
            Some("times"),
        );
    }

    #[test]
    fn slot_keys() {
        for (k, ok) in [
            ("header_right", true),
            ("gift_game_dialog", true),
            ("", false),
            ("Header", false),
            ("a,b", false),
        ] {
            assert_eq!(slot_key_ok(k), ok, "{k}");
        }
        assert!(!slot_key_ok(&"a".repeat(41)));
    }

    #[test]
    fn which_purchases_may_name_an_ad() {
        let ad = |end_at: i64, retired: bool| Ad {
            id: 1,
            slot: "s".into(),
            spec: AdSpec {
                end_at,
                ..spec(5, "useup_60", 2)
            },
            retired,
        };
        assert!(buys(&ad(0, false), "useup_60", 5));
        assert!(!buys(&ad(0, false), "useup_180", 5), "another goods");
        assert!(!buys(&ad(5, false), "useup_60", 5), "ended");
        assert!(!buys(&ad(0, true), "useup_60", 5), "retired");
        let action = Ad {
            spec: spec(3, "buyMember", 0),
            ..ad(0, false)
        };
        assert!(!buys(&action, "buyMember", 5), "not a section ad");
    }

    #[test]
    fn pay_times_and_the_app_gift() {
        assert!(!out_of_pay_times(0, 100), "no limit");
        assert!(!out_of_pay_times(2, 1));
        assert!(out_of_pay_times(2, 2));
        assert!(is_own_app("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 slyAndroid/3.2"));
        assert!(is_own_app("Mozilla/5.0 (iPhone) LEYOU_IOS"));
        assert!(!is_own_app("Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"));
        assert_eq!(app_playtime(30, false), 30);
        assert_eq!(app_playtime(30, true), 0);
        assert_eq!(app_playtime(0, false), 0);
    }
}
