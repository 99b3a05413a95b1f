//! Text renderings of what the simulation produces, byte for byte as the real tools print them.
//!
//! Pure functions from values to strings (no I/O), so they build for wasm32 too and the page can
//! offer the same text as the command line:
//!
//! * [`json`]: `kubectl get -o json` (Go's `json.MarshalIndent` with four spaces, keys sorted,
//!   `<`, `>` and `&` escaped as Go escapes them).
//! * [`yaml`]: `kubectl get -o yaml` (sigs.k8s.io/yaml, that is go-yaml v2's emitter: its key
//!   order, quoting rules and 80-column folding).
//! * [`timeline`]: the JSON Lines account of a timeline's requests and events
//!   (`nodeline timeline`).
//! * [`list`]: the `v1` `List` of every object at an instant (`nodeline objects`).
//! * [`request`]: one request as `-v=8` logs it, with the kubelet's status patch (`sim::patch`).
//! * [`linediff`]: which YAML lines changed, and unified diffs.
//! * [`kubectl`]: `kubectl get` tables, `kubectl describe node`, `-o yaml|json|name` and
//!   kubectl's errors for the cluster at an instant (the page's kubectl panel, `nodeline
//!   kubectl`).

pub mod json;
pub mod klog;
pub mod kubectl_printer;
pub mod linediff;
pub mod list;
pub mod request;
pub mod timeline;
pub mod yaml;

mod gofmt;
