//! `nodeline objects`: every object at an instant as a `v1` `List`, the shape
//! `kubectl get nodes,leases,pods,events -A -o json|yaml` prints.

use serde_json::{Map, Value};

use crate::sim::Snapshot;
use crate::sim::objects::Object;

/// `objects` as a `List` (`apiVersion: v1`, `kind: List`, `metadata: {resourceVersion: ""}`,
/// `items`), in the order given.
pub fn object_list(objects: &[Object]) -> Value {
    let mut metadata = Map::new();
    metadata.insert("resourceVersion".into(), Value::from(""));
    let mut list = Map::new();
    list.insert("apiVersion".into(), Value::from("v1"));
    list.insert("items".into(), Value::Array(objects.iter().map(Object::to_json).collect()));
    list.insert("kind".into(), Value::from("List"));
    list.insert("metadata".into(), Value::Object(metadata));
    Value::Object(list)
}

/// Every Node, CSINode, Lease, Pod and Event at the snapshot's instant, as a `List`.
pub fn snapshot_list(snapshot: &Snapshot<'_>) -> Value {
    object_list(&snapshot.objects())
}
