//! `scheduling.k8s.io/v1` `PriorityClass`: a name for a Pod priority, which the Priority
//! admission plugin copies into a Pod naming it (`spec.priorityClassName` → `spec.priority`,
//! `spec.preemptionPolicy`).

use serde::Serialize;

use super::ObjectMeta;

/// A `PriorityClass`, in the API's field order (`globalDefault` and `description` omitted when
/// empty, `preemptionPolicy` defaulted to `PreemptLowerPriority`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PriorityClass {
    pub kind: &'static str,
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub value: i32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub global_default: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub preemption_policy: &'static str,
}

impl PriorityClass {
    /// A class as a client submits it, with the API server's default preemption policy.
    pub fn new(name: &str, value: i32, description: &str) -> PriorityClass {
        PriorityClass {
            kind: "PriorityClass",
            api_version: "scheduling.k8s.io/v1",
            metadata: ObjectMeta { name: name.into(), ..ObjectMeta::default() },
            value,
            global_default: false,
            description: description.into(),
            preemption_policy: "PreemptLowerPriority",
        }
    }
}
