//! `metav1` shapes shared by every object: `ObjectMeta`, owner references, timestamps.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use super::Text;
use crate::shared::Shared;
use crate::time::WallTime;

/// Labels or annotations: shared between an object's versions (and with the world's copy) until
/// one of them changes them, so a status change, which leaves them alone, copies none of them (a
/// Node's dozen labels, once per status PATCH and again in the Node the PATCH wants).
pub type StringMap = Shared<BTreeMap<String, String>>;

/// A `metav1.Time`: whole seconds, serialized as RFC 3339 (`2006-01-02T15:04:05Z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub WallTime);

impl Time {
    /// The `metav1.Time` for a wall-clock instant (truncated to seconds, as the API stores it).
    pub fn at(t: WallTime) -> Time {
        Time(t.truncate_secs())
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.rfc3339())
    }
}

/// A `metav1.MicroTime`: serialized as RFC 3339 with six fractional digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MicroTime(pub WallTime);

impl Serialize for MicroTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.rfc3339_micros())
    }
}

/// `metav1.ObjectMeta`, with the fields the simulation's objects use, in the API's field order.
/// `managedFields` is left out, as `kubectl get -o yaml` leaves it out.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    pub name: Text,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub generate_name: Text,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub namespace: Text,
    pub uid: Text,
    #[serde(serialize_with = "rv_string")]
    pub resource_version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    pub creation_timestamp: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(skip_serializing_if = "no_entries")]
    pub labels: StringMap,
    #[serde(skip_serializing_if = "no_entries")]
    pub annotations: StringMap,
    #[serde(skip_serializing_if = "no_items")]
    pub owner_references: Shared<Vec<OwnerReference>>,
    #[serde(skip_serializing_if = "no_items")]
    pub finalizers: Shared<Vec<String>>,
}

fn no_items<T>(list: &Shared<Vec<T>>) -> bool {
    list.is_empty()
}

fn no_entries(map: &StringMap) -> bool {
    map.is_empty()
}

fn rv_string<S: Serializer>(rv: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(rv)
}

/// `metav1.OwnerReference`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: Cow<'static, str>,
    pub kind: Cow<'static, str>,
    pub name: String,
    pub uid: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// `v1.ObjectReference`, as Events and Bindings use it.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    #[serde(skip_serializing_if = "str::is_empty")]
    pub kind: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub namespace: Text,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub name: Text,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub uid: Text,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub api_version: Cow<'static, str>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}
