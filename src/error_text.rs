//! An error and its causes as one line, each cause said once.
//!
//! Many library errors print their cause inside their own message (`durable::Error` is
//! `PATH: CAUSE`) and also hand it on as their `source()`, so anyhow's `{:#}`, which joins
//! every message of the chain, says the cause twice: `... (os error 2): No such file or
//! directory (os error 2)`. Here a cause already written out by the message before it is left
//! out, whatever error type made the chain.

/// The error's messages joined by `: `, a cause left out when the message it is the cause of
/// already ends with it.
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    let mut previous = String::new();
    for cause in err.chain() {
        let message = cause.to_string();
        if !previous.is_empty() && previous.ends_with(&message) {
            previous = message;
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&message);
        previous = message;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_its_message_already_holds_is_said_once() {
        let io = std::io::Error::from_raw_os_error(2);
        let err =
            anyhow::Error::new(durable::Error { path: "/x/config.toml".into(), source: io }).context("/x is not a run");
        let text = error_text(&err);
        assert_eq!(text.matches("(os error 2)").count(), 1, "{text}");
        assert!(text.starts_with("/x is not a run: /x/config.toml: No such file"), "{text}");
    }

    #[test]
    fn causes_not_in_the_message_are_kept() {
        let err = anyhow::anyhow!("disk full").context("writing g.html").context("replay");
        assert_eq!(error_text(&err), "replay: writing g.html: disk full");
    }
}
