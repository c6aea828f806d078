//! Case conventions: splitting a Flow NAME into words and joining them in
//! snake_case, PascalCase or camelCase, with non-ASCII letters written as
//! `uXXXX` so that every result is an ASCII identifier and distinct names
//! stay distinct.

/// Splits a name into words at `_`, `-`, spaces and other non-alphanumerics,
/// and at lower-to-upper case changes (`getForecast` → get, forecast).
pub fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `get_forecast`, `unknown_city`.
pub fn snake_case(name: &str) -> String {
    let joined = words(name).iter().map(|w| w.to_lowercase()).collect::<Vec<_>>().join("_");
    ascii_identifier(&joined)
}

/// `GetForecast`, `UnknownCity`.
pub fn pascal_case(name: &str) -> String {
    let joined: String = words(name)
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect();
    ascii_identifier(&joined)
}

/// `getForecast`.
pub fn camel_case(name: &str) -> String {
    let pascal = pascal_case(name);
    let mut chars = pascal.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => pascal,
    }
}

/// Keeps ASCII letters, digits and `_`; writes any other character as `uXXXX`
/// so that distinct names stay distinct; never starts with a digit; never empty.
pub fn ascii_identifier(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            out.push_str(&format!("u{:04X}", c as u32));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        assert_eq!(snake_case("get_forecast"), "get_forecast");
        assert_eq!(snake_case("get-sum"), "get_sum");
        assert_eq!(snake_case("getForecast"), "get_forecast");
        assert_eq!(pascal_case("unknown_city"), "UnknownCity");
        assert_eq!(pascal_case("WeatherError"), "WeatherError");
        assert_eq!(camel_case("get_forecast"), "getForecast");
        assert_eq!(snake_case("2fa"), "_2fa");
        assert_eq!(pascal_case("Zürich"), "Zu00FCrich");
    }
}
