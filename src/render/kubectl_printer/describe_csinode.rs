//! `kubectl describe csinode`, as kubectl 1.32 prints it (`pkg/describe/describe.go`,
//! `CSINodeDescriber.Describe`, `describeCSINode`): name, labels, annotations, creation time, the
//! spec's drivers (a nil list, as the API server serves a CSINode without drivers, prints only
//! `Spec:`), and the Events about it (`searchEvents`: kind, name and uid of the reference).

use super::describe::{Prefix, annotations, describe_events, multiline, search_events};
use super::tabwriter::TabWriter;
use super::{Cluster, rfc1123z};
use crate::sim::objects::{CsiNode, Event};

/// The Events `kubectl describe csinode` asks for, in list order (before sorting).
pub fn csinode_events<'a>(cluster: &'a Cluster, csinode: &CsiNode) -> Vec<&'a Event> {
    search_events(cluster, "CSINode", &csinode.metadata)
}

/// `kubectl describe csinode NAME` for `csinode`; the Events (unless `show_events` is false)
/// read from `cluster`.
pub fn describe_csinode(csinode: &CsiNode, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let meta = &csinode.metadata;
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    multiline(&mut w, "Labels", meta.labels.iter().map(|(k, v)| [k.as_str(), "=", v, "\n"].concat()).collect());
    annotations(&mut w, &meta.annotations);
    w.put(0, &["CreationTimestamp:\t", &rfc1123z(meta.creation_timestamp.map(|t| t.0)), "\n"]);
    w.put(0, &["Spec:\n"]);
    if let Some(drivers) = &csinode.spec.drivers {
        w.put(1, &["Drivers:\n"]);
        for d in drivers {
            w.put(2, &[&d.name, ":\n"]);
            w.put(3, &["Node ID:\t", &d.node_id, "\n"]);
        }
    }
    if show_events {
        let mut events = csinode_events(cluster, csinode);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::WallTime;
    use crate::sim::objects::{CsiNodeDriver, CsiNodeSpec};

    #[test]
    fn a_csinode_without_drivers_prints_its_annotation_and_an_empty_spec() {
        let mut c = CsiNode::for_node("node-1", "uid-1");
        c.spec = CsiNodeSpec { drivers: None };
        let cluster = Cluster { now: WallTime(0), ..Cluster::default() };
        let text = describe_csinode(&c, &cluster, true);
        assert!(
            text.starts_with("Name:               node-1\nLabels:             <none>\nAnnotations:        "),
            "{text}"
        );
        assert!(
            text.contains("storage.alpha.kubernetes.io/migrated-plugins:\n"),
            "a long value on its own line: {text}"
        );
        // "Spec:" has no tab: the tab writer aligns the Events line as a block of its own.
        assert!(text.ends_with("Spec:\nEvents:  <none>\n"), "{text}");
        assert!(!describe_csinode(&c, &cluster, false).contains("Events"));
        c.spec.drivers = Some(vec![CsiNodeDriver { name: "ebs.csi.aws.com".into(), node_id: "i-1".into() }]);
        let text = describe_csinode(&c, &cluster, false);
        assert!(text.ends_with("Spec:\n  Drivers:\n    ebs.csi.aws.com:\n      Node ID:  i-1\n"), "{text}");
    }
}
