//! Text helpers for messages.

/// Longest piece of user input quoted in an error message.
const QUOTE_LIMIT: usize = 40;

/// Shortens user input for quoting in an error message: at most
/// `QUOTE_LIMIT` characters, then `...`.
pub fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_LIMIT {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(QUOTE_LIMIT).collect();
        s.push_str("...");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn long_input_is_cut() {
        assert_eq!(quote("e2e4"), "e2e4");
        let long = "x".repeat(100);
        assert_eq!(quote(&long), format!("{}...", "x".repeat(40)));
    }
}
