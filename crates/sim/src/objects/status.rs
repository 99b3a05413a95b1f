//! `metav1.Status`: the body of every error answer from the API server.

use serde::Serialize;

/// An API error, as the API server serializes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Status {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: StatusMeta,
    pub status: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<StatusDetails>,
    pub code: u16,
}

/// The always-empty `metadata` of a Status.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct StatusMeta {}

/// `metav1.StatusDetails`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StatusDetails {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub group: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
}

/// `metav1.StatusCause`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StatusCause {
    pub reason: String,
    pub message: String,
}

impl Status {
    /// The `Success` status some subresources answer with (e.g. `pods/binding`).
    pub fn success(code: u16) -> Status {
        Status {
            kind: "Status",
            api_version: "v1",
            metadata: StatusMeta {},
            status: "Success",
            message: String::new(),
            reason: "",
            details: None,
            code,
        }
    }

    /// A failure with `code`, `reason` (empty for none) and `message`, about no object.
    pub fn plain_failure(code: u16, reason: &'static str, message: String) -> Status {
        Status { status: "Failure", message, reason, code, ..Status::success(code) }
    }

    /// A failure with `code`, `reason` and `message`, about the `resource` named `name`.
    pub fn failure(
        code: u16,
        reason: &'static str,
        message: String,
        group: &'static str,
        resource: &'static str,
        name: &str,
    ) -> Status {
        Status {
            kind: "Status",
            api_version: "v1",
            metadata: StatusMeta {},
            status: "Failure",
            message,
            reason,
            details: Some(StatusDetails { name: name.into(), group, kind: resource, causes: Vec::new() }),
            code,
        }
    }
}
