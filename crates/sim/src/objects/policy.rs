//! `policy/v1` `PodDisruptionBudget`, and the `IntOrString` its budgets are written in.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Serialize, Serializer};

use super::meta::{ObjectMeta, Time};

/// A `PodDisruptionBudget` as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PodDisruptionBudget {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: PdbSpec,
    pub status: PdbStatus,
}

/// An `intstr.IntOrString`: a number, or a percentage such as `"50%"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IntOrPercent {
    Int(i32),
    Percent(i32),
}

impl IntOrPercent {
    /// `intstr.GetScaledValueFromIntOrPercent`: the number, or the percentage of `total`
    /// rounded up (`round_up`) or down.
    pub fn scaled(self, total: i32, round_up: bool) -> i32 {
        match self {
            IntOrPercent::Int(n) => n,
            IntOrPercent::Percent(p) => {
                let v = i64::from(p) * i64::from(total);
                (if round_up { (v + 99) / 100 } else { v / 100 }) as i32
            }
        }
    }
}

impl fmt::Display for IntOrPercent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrPercent::Int(n) => write!(f, "{n}"),
            IntOrPercent::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl Serialize for IntOrPercent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrPercent::Int(n) => s.serialize_i32(*n),
            IntOrPercent::Percent(_) => s.collect_str(self),
        }
    }
}

/// `metav1.LabelSelector` with `matchLabels` only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    pub match_labels: BTreeMap<String, String>,
}

impl LabelSelector {
    /// Whether `labels` carry every label the selector names.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.match_labels.iter().all(|(k, v)| labels.get(k) == Some(v))
    }
}

impl fmt::Display for LabelSelector {
    /// As `metav1.LabelSelectorAsSelector(..).String()` prints it: `k=v,k2=v2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.match_labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&parts.join(","))
    }
}

/// `policy/v1` `PodDisruptionBudgetSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PdbSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrPercent>,
    pub selector: LabelSelector,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrPercent>,
}

/// `policy/v1` `PodDisruptionBudgetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PdbStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub disrupted_pods: BTreeMap<String, Time>,
    pub disruptions_allowed: i32,
    pub current_healthy: i32,
    pub desired_healthy: i32,
    pub expected_pods: i32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `metav1.Condition`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    pub last_transition_time: Time,
    pub reason: String,
    pub message: String,
}

impl PodDisruptionBudget {
    /// A new budget as `kubectl create pdb` submits it.
    pub fn new(namespace: &str, name: &str, spec: PdbSpec) -> PodDisruptionBudget {
        PodDisruptionBudget {
            kind: "PodDisruptionBudget",
            api_version: "policy/v1",
            metadata: ObjectMeta { name: name.into(), namespace: namespace.into(), ..ObjectMeta::default() },
            spec,
            status: PdbStatus::default(),
        }
    }

    /// The `DisruptionAllowed` condition, if present.
    pub fn condition(&self) -> Option<&Condition> {
        self.status.conditions.iter().find(|c| c.type_ == "DisruptionAllowed")
    }
}

/// `apipolicy.DisruptionAllowedCondition` set as the PDB code sets it (`apimeta.SetStatusCondition`:
/// the transition time moves only when the status changes).
pub fn set_disruption_allowed(status: &mut PdbStatus, allowed: bool, generation: Option<i64>, now: Time) {
    let (value, reason) = if allowed { ("True", "SufficientPods") } else { ("False", "InsufficientPods") };
    match status.conditions.iter_mut().find(|c| c.type_ == "DisruptionAllowed") {
        Some(c) => {
            if c.status != value {
                c.status = value.into();
                c.last_transition_time = now;
            }
            c.reason = reason.into();
            c.observed_generation = generation;
        }
        None => status.conditions.push(Condition {
            type_: "DisruptionAllowed".into(),
            status: value.into(),
            observed_generation: generation,
            last_transition_time: now,
            reason: reason.into(),
            message: String::new(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_scale_as_intstr_does() {
        assert_eq!(IntOrPercent::Percent(50).scaled(3, true), 2);
        assert_eq!(IntOrPercent::Percent(50).scaled(3, false), 1);
        assert_eq!(IntOrPercent::Int(2).scaled(3, true), 2);
        assert_eq!(serde_json::to_string(&IntOrPercent::Percent(25)).unwrap(), "\"25%\"");
        assert_eq!(serde_json::to_string(&IntOrPercent::Int(2)).unwrap(), "2");
    }
}
