//! `kubectl describe pod`, as kubectl 1.32 prints it (`pkg/describe/describe.go`,
//! `PodDescriber.Describe`, `describePod`, `describeContainers`, `describeVolumes`,
//! `printTolerationsMultilineWithIndent`, and `DescribeEvents` shared with `describe node`).
//!
//! kubectl reads the Pod, then the Events with the field selector `involvedObject.name`,
//! `involvedObject.namespace` and `involvedObject.uid` (the reference's kind cleared): an Event
//! whose involved object carries no uid, such as the taint eviction controller's
//! `TaintManagerEviction`, is not listed, though `kubectl get events` shows it.

use super::describe::{Prefix, annotations, describe_events, multiline};
use super::tabwriter::TabWriter;
use super::{Cluster, rfc1123z, since};
use crate::sim::objects::{Container, ContainerState, ContainerStatus, Event, ObjectMeta, Pod, Toleration, Volume};

/// The Events `kubectl describe pod` asks for, in list order (before sorting).
pub fn pod_events<'a>(cluster: &'a Cluster, pod: &Pod) -> Vec<&'a Event> {
    events_about(cluster, &pod.metadata)
}

/// The Events whose involved object is the namespaced object with this metadata (by name,
/// namespace and uid), in list order: what `describe` asks for about a Pod or a budget.
pub fn events_about<'a>(cluster: &'a Cluster, m: &ObjectMeta) -> Vec<&'a Event> {
    cluster
        .all::<Event>()
        .filter(|e| {
            let o = &e.involved_object;
            e.metadata.namespace == m.namespace && o.name == m.name && o.namespace == m.namespace && o.uid == m.uid
        })
        .map(|e| &**e)
        .collect()
}

/// `kubectl describe pod NAME` for `pod`; the Events (unless `show_events` is false) read from
/// `cluster`.
pub fn describe_pod(pod: &Pod, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let (meta, spec, status) = (&pod.metadata, &pod.spec, &pod.status);
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Namespace:\t", &meta.namespace, "\n"]);
    w.put(0, &["Priority:\t", &spec.priority.to_string(), "\n"]);
    if !spec.priority_class_name.is_empty() {
        w.put(0, &["Priority Class Name:\t", &spec.priority_class_name, "\n"]);
    }
    if !spec.service_account_name.is_empty() {
        w.put(0, &["Service Account:\t", &spec.service_account_name, "\n"]);
    }
    if spec.node_name.is_empty() {
        w.put(0, &["Node:\t<none>\n"]);
    } else {
        w.put(0, &["Node:\t", &spec.node_name, "/", &status.host_ip, "\n"]);
    }
    if let Some(t) = status.start_time {
        w.put(0, &["Start Time:\t", &rfc1123z(Some(t.0)), "\n"]);
    }
    multiline(&mut w, "Labels", meta.labels.iter().map(|(k, v)| [k.as_str(), "=", v, "\n"].concat()).collect());
    annotations(&mut w, &meta.annotations);
    match meta.deletion_timestamp {
        Some(t) if status.phase != "Failed" && status.phase != "Succeeded" => {
            w.put(0, &["Status:\tTerminating (lasts ", &since(cluster.now, Some(t.0)), ")\n"]);
            let grace = meta.deletion_grace_period_seconds.unwrap_or_default().to_string();
            w.put(0, &["Termination Grace Period:\t", &grace, "s\n"]);
        }
        _ => w.put(0, &["Status:\t", &status.phase, "\n"]),
    }
    if !status.reason.is_empty() {
        w.put(0, &["Reason:\t", &status.reason, "\n"]);
    }
    if !status.message.is_empty() {
        w.put(0, &["Message:\t", &status.message, "\n"]);
    }
    w.put(0, &["IP:\t", &status.pod_ip, "\n"]);
    if status.pod_ips.is_empty() {
        w.put(0, &["IPs:\t<none>\n"]);
    } else {
        w.put(0, &["IPs:\n"]);
        for ip in &status.pod_ips {
            w.put(1, &["IP:\t", &ip.ip, "\n"]);
        }
    }
    if let Some(owner) = meta.owner_references.iter().find(|o| o.controller == Some(true)) {
        w.put(0, &["Controlled By:\t", &owner.kind, "/", &owner.name, "\n"]);
    }
    containers(&mut w, "", &spec.containers, &status.container_statuses);
    if !status.conditions.is_empty() {
        w.put(0, &["Conditions:\n  Type\tStatus\n"]);
        for c in &status.conditions {
            w.put(1, &[c.type_, " \t", c.status, " \n"]);
        }
    }
    volumes(&mut w, "", &spec.volumes);
    w.put(0, &["QoS Class:\t", &status.qos_class, "\n"]);
    multiline(&mut w, "Node-Selectors", Vec::new());
    tolerations(&mut w, "Tolerations", &spec.tolerations);
    if show_events {
        let mut events = pod_events(cluster, pod);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

/// `describeContainers("Containers", …)` with `space` before the title (`"  "` in a Pod
/// template, whose containers have no statuses), and one more space before each name.
pub(super) fn containers(w: &mut Prefix, space: &str, containers: &[Container], statuses: &[ContainerStatus]) {
    w.put(0, &[space, "Containers:", if containers.is_empty() { " <none>" } else { "" }, "\n"]);
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in containers {
        let status = statuses.iter().find(|s| *s.name == *c.name);
        w.put(1, &[name_indent, &c.name, ":\n"]);
        if let Some(s) = status {
            w.put(2, &["Container ID:\t", &s.container_id, "\n"]);
        }
        w.put(2, &["Image:\t", &c.image, "\n"]);
        if let Some(s) = status {
            w.put(2, &["Image ID:\t", &s.image_id, "\n"]);
        }
        w.put(2, &["Port:\t<none>\n"]);
        w.put(2, &["Host Port:\t<none>\n"]);
        if let Some(s) = status {
            state(w, "State", &s.state);
            if s.last_state.terminated.is_some() {
                state(w, "Last State", &s.last_state);
            }
            w.put(2, &["Ready:\t", if s.ready { "True" } else { "False" }, "\n"]);
            w.put(2, &["Restart Count:\t", &s.restart_count.to_string(), "\n"]);
        }
        for (title, list) in [("Limits:\n", &c.resources.limits), ("Requests:\n", &c.resources.requests)] {
            if list.is_empty() {
                continue;
            }
            w.put(2, &[title]);
            for (name, value) in list {
                let shown = super::quantity::Quantity::parse(value).map_or_else(|| value.clone(), |q| q.canonical());
                w.put(3, &[name, ":\t", &shown, "\n"]);
            }
        }
        w.put(2, &["Environment:\t<none>\n"]);
        w.put(2, &["Mounts:", if c.volume_mounts.is_empty() { "\t<none>" } else { "" }, "\n"]);
        let mut mounts: Vec<_> = c.volume_mounts.iter().collect();
        mounts.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
        for m in mounts {
            w.put(3, &[&m.mount_path, " from ", &m.name, if m.read_only { " (ro)\n" } else { " (rw)\n" }]);
        }
    }
}

/// `printTolerationsMultilineWithIndent` (`title` carries any indent).
pub(super) fn tolerations(w: &mut Prefix, title: &str, tolerations: &[Toleration]) {
    // (key, line) pairs, in the order `sort.Slice` by key leaves them (Go's pdqsort, not stable).
    let mut lines: Vec<(String, String)> = tolerations
        .iter()
        .map(|t| {
            let mut s = t.key.to_string();
            if !t.value.is_empty() {
                s.push('=');
                s.push_str(&t.value);
            }
            if !t.effect.is_empty() {
                s.push(':');
                s.push_str(&t.effect);
            }
            if t.operator == "Exists" && t.value.is_empty() {
                s.push_str(if t.key.is_empty() && t.effect.is_empty() { "op=Exists" } else { " op=Exists" });
            }
            if let Some(secs) = t.toleration_seconds {
                s.push_str(&[" for ", &secs.to_string(), "s"].concat());
            }
            s.push('\n');
            (t.key.to_string(), s)
        })
        .collect();
    super::gosort::sort(&mut lines, &|a, b| a.0 < b.0);
    multiline(w, title, lines.into_iter().map(|(_, line)| line).collect());
}

/// `describeStatus`.
fn state(w: &mut Prefix, title: &str, s: &ContainerState) {
    let time = |t: crate::sim::objects::Time| rfc1123z(Some(t.0));
    if let Some(r) = &s.running {
        w.put(2, &[title, ":\tRunning\n"]);
        w.put(3, &["Started:\t", &time(r.started_at), "\n"]);
    } else if let Some(wt) = &s.waiting {
        w.put(2, &[title, ":\tWaiting\n"]);
        if !wt.reason.is_empty() {
            w.put(3, &["Reason:\t", &wt.reason, "\n"]);
        }
    } else if let Some(t) = &s.terminated {
        w.put(2, &[title, ":\tTerminated\n"]);
        if !t.reason.is_empty() {
            w.put(3, &["Reason:\t", &t.reason, "\n"]);
        }
        if !t.message.is_empty() {
            w.put(3, &["Message:\t", &t.message, "\n"]);
        }
        w.put(3, &["Exit Code:\t", &t.exit_code.to_string(), "\n"]);
        w.put(3, &["Started:\t", &time(t.started_at), "\n"]);
        w.put(3, &["Finished:\t", &time(t.finished_at), "\n"]);
    }
}

/// `describeVolumes`, with `space` before the title (`"  "` in a Pod template) and one more
/// space before each name: the kinds a simulated Pod has, the projected service-account volume
/// (`printProjectedVolumeSource`), `emptyDir` (`printEmptyDirVolumeSource`) and
/// `persistentVolumeClaim` (`printPersistentVolumeClaimVolumeSource`), read from the volume as
/// the API serves it.
pub(super) fn volumes(w: &mut Prefix, space: &str, volumes: &[Volume]) {
    if volumes.is_empty() {
        w.put(0, &[space, "Volumes:\t<none>\n"]);
        return;
    }
    w.put(0, &[space, "Volumes:\n"]);
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in volumes {
        w.put(1, &[name_indent, &v.name, ":\n"]);
        if v.empty_dir.is_some() {
            w.put(2, &["Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n"]);
            w.put(2, &["Medium:\t\n"]);
            w.put(2, &["SizeLimit:\t<unset>\n"]);
        }
        if let Some(claim) = &v.persistent_volume_claim {
            w.put(
                2,
                &["Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n"],
            );
            w.put(2, &["ClaimName:\t", &claim.claim_name, "\n"]);
            w.put(2, &["ReadOnly:\tfalse\n"]);
        }
        let Some(projected) = &v.projected else { continue };
        w.put(2, &["Type:\tProjected (a volume that contains injected data from multiple sources)\n"]);
        for source in &projected.sources {
            if let Some(token) = source.get("serviceAccountToken") {
                let secs = token["expirationSeconds"].as_i64().unwrap_or_default().to_string();
                w.put(2, &["TokenExpirationSeconds:\t", &secs, "\n"]);
            } else if let Some(cm) = source.get("configMap") {
                // kubectl 1.32 prints the `*bool` as it is: `<nil>` when unset.
                let optional = cm["optional"].as_bool().map_or("<nil>".to_string(), |b| b.to_string());
                let name = cm["name"].as_str().unwrap_or_default();
                w.put(2, &["ConfigMapName:\t", name, "\n    ConfigMapOptional:\t", &optional, "\n"]);
            } else if source.get("downwardAPI").is_some() {
                w.put(2, &["DownwardAPI:\ttrue\n"]);
            }
        }
    }
}
