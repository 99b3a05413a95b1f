//! `kubectl describe poddisruptionbudget`, as kubectl 1.32 prints it (`pkg/describe/describe.go`,
//! `describePodDisruptionBudgetV1`), with the Events about the budget's uid.

use super::Cluster;
use super::describe::{Prefix, describe_events};
use super::describe_pod::events_about;
use super::tabwriter::TabWriter;
use crate::sim::objects::PodDisruptionBudget;

/// `kubectl describe pdb NAME` for `pdb`.
pub fn describe_pdb(pdb: &PodDisruptionBudget, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let (meta, spec, status) = (&pdb.metadata, &pdb.spec, &pdb.status);
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Namespace:\t", &meta.namespace, "\n"]);
    if let Some(v) = spec.min_available {
        w.put(0, &["Min available:\t", &v.to_string(), "\n"]);
    } else if let Some(v) = spec.max_unavailable {
        w.put(0, &["Max unavailable:\t", &v.to_string(), "\n"]);
    }
    w.put(0, &["Selector:\t", &spec.selector.to_string(), "\n"]);
    w.put(0, &["Status:\n"]);
    w.put(2, &["Allowed disruptions:\t", &status.disruptions_allowed.to_string(), "\n"]);
    w.put(2, &["Current:\t", &status.current_healthy.to_string(), "\n"]);
    w.put(2, &["Desired:\t", &status.desired_healthy.to_string(), "\n"]);
    w.put(2, &["Total:\t", &status.expected_pods.to_string(), "\n"]);
    if show_events {
        let mut events = events_about(cluster, &pdb.metadata);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}
