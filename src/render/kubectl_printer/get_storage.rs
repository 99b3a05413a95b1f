//! The API server's rows for StatefulSets, PersistentVolumeClaims, PersistentVolumes,
//! VolumeAttachments and PriorityClasses (`pkg/printers/internalversion/printers.go`, Kubernetes
//! 1.32: the column definitions and `printStatefulSet`, `printPersistentVolumeClaim`,
//! `printPersistentVolume`, `printVolumeAttachment`, `printPriorityClass`).

use super::get::{Column, Row};
use super::since;
use crate::sim::WallTime;
use crate::sim::objects::{
    ControllerRevision, PersistentVolume, PersistentVolumeClaim, PriorityClass, StatefulSet, VolumeAttachment,
};

const fn col(name: &'static str, priority: u8) -> Column {
    Column { name, priority, is_name: false, type_: "string" }
}

const NAME: Column = Column { name: "Name", priority: 0, is_name: true, type_: "string" };

/// The StatefulSet columns.
pub const STATEFULSET_COLUMNS: &[Column] =
    &[NAME, col("Ready", 0), col("Age", 0), col("Containers", 1), col("Images", 1)];

/// The ControllerRevision columns.
pub const REVISION_COLUMNS: &[Column] = &[
    NAME,
    col("Controller", 0),
    Column { name: "Revision", priority: 0, is_name: false, type_: "integer" },
    col("Age", 0),
];

/// The PersistentVolumeClaim columns.
pub const CLAIM_COLUMNS: &[Column] = &[
    NAME,
    col("Status", 0),
    col("Volume", 0),
    col("Capacity", 0),
    col("Access Modes", 0),
    col("StorageClass", 0),
    col("VolumeAttributesClass", 0),
    col("Age", 0),
    col("VolumeMode", 1),
];

/// The PersistentVolume columns.
pub const VOLUME_COLUMNS: &[Column] = &[
    NAME,
    col("Capacity", 0),
    col("Access Modes", 0),
    col("Reclaim Policy", 0),
    col("Status", 0),
    col("Claim", 0),
    col("StorageClass", 0),
    col("VolumeAttributesClass", 0),
    col("Reason", 0),
    col("Age", 0),
    col("VolumeMode", 1),
];

/// The VolumeAttachment columns (the server declares ATTACHER with `format: name` too).
pub const VOLUME_ATTACHMENT_COLUMNS: &[Column] = &[
    NAME,
    Column { name: "Attacher", priority: 0, is_name: true, type_: "string" },
    col("PV", 0),
    col("Node", 0),
    Column { name: "Attached", priority: 0, is_name: false, type_: "boolean" },
    col("Age", 0),
];

/// `helper.GetAccessModesAsString`: `RWO`, `ROX`, `RWX`, `RWOP`, comma-joined.
pub(super) fn access_modes(modes: &[String]) -> String {
    let short = |m: &str| match m {
        "ReadWriteOnce" => "RWO",
        "ReadOnlyMany" => "ROX",
        "ReadWriteMany" => "RWX",
        "ReadWriteOncePod" => "RWOP",
        _ => "",
    };
    ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"]
        .into_iter()
        .filter(|m| modes.iter().any(|x| x == m))
        .map(short)
        .collect::<Vec<_>>()
        .join(",")
}

/// `printStatefulSet`: NAME, READY (`ready/desired`), AGE, CONTAINERS, IMAGES.
pub fn statefulset_row(set: &StatefulSet, now: WallTime) -> Row {
    let containers = &set.spec.template.spec.containers;
    Row {
        cells: vec![
            set.metadata.name.to_string(),
            format!("{}/{}", set.status.ready_replicas, set.spec.replicas),
            since(now, set.metadata.creation_timestamp.map(|t| t.0)),
            containers.iter().map(|c| &*c.name).collect::<Vec<_>>().join(","),
            containers.iter().map(|c| &*c.image).collect::<Vec<_>>().join(","),
        ],
        namespace: set.metadata.namespace.to_string(),
        name: set.metadata.name.to_string(),
    }
}

/// `printControllerRevision`: CONTROLLER is the controller reference as `kind.group/name`
/// (`formatResourceName` with the kind lower-cased), `<none>` without one.
pub fn revision_row(rev: &ControllerRevision, now: WallTime) -> Row {
    let controller = rev.metadata.owner_references.iter().find(|o| o.controller == Some(true)).map_or_else(
        || "<none>".to_string(),
        |o| {
            let group = o.api_version.split_once('/').map_or("", |(g, _)| g);
            let kind = o.kind.to_lowercase();
            if group.is_empty() { format!("{kind}/{}", o.name) } else { format!("{kind}.{group}/{}", o.name) }
        },
    );
    Row {
        cells: vec![
            rev.metadata.name.to_string(),
            controller,
            rev.revision.to_string(),
            since(now, rev.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: rev.metadata.namespace.to_string(),
        name: rev.metadata.name.to_string(),
    }
}

/// The PriorityClass columns.
pub const PRIORITY_CLASS_COLUMNS: &[Column] = &[
    NAME,
    Column { name: "Value", priority: 0, is_name: false, type_: "integer" },
    Column { name: "Global-Default", priority: 0, is_name: false, type_: "boolean" },
    col("Age", 0),
    col("PreemptionPolicy", 0),
];

/// `printPriorityClass`: name, value, whether it is the global default, age, preemption policy.
pub fn priority_class_row(class: &PriorityClass, now: WallTime) -> Row {
    Row {
        cells: vec![
            class.metadata.name.to_string(),
            class.value.to_string(),
            class.global_default.to_string(),
            since(now, class.metadata.creation_timestamp.map(|t| t.0)),
            class.preemption_policy.to_string(),
        ],
        namespace: String::new(),
        name: class.metadata.name.to_string(),
    }
}

/// `printPersistentVolumeClaim`: capacity and access modes only once a volume is named;
/// `Terminating` while deleted.
pub fn claim_row(claim: &PersistentVolumeClaim, now: WallTime) -> Row {
    let phase = if claim.metadata.deletion_timestamp.is_some() { "Terminating" } else { &claim.status.phase };
    let bound = !claim.spec.volume_name.is_empty();
    Row {
        cells: vec![
            claim.metadata.name.to_string(),
            phase.to_string(),
            claim.spec.volume_name.clone(),
            if bound { claim.capacity().to_string() } else { String::new() },
            if bound { access_modes(&claim.status.access_modes) } else { String::new() },
            claim.spec.storage_class_name.clone(),
            "<unset>".into(),
            since(now, claim.metadata.creation_timestamp.map(|t| t.0)),
            claim.spec.volume_mode.clone(),
        ],
        namespace: claim.metadata.namespace.to_string(),
        name: claim.metadata.name.to_string(),
    }
}

/// `printPersistentVolume`.
pub fn volume_row(pv: &PersistentVolume, now: WallTime) -> Row {
    let phase = if pv.metadata.deletion_timestamp.is_some() { "Terminating" } else { &pv.status.phase };
    Row {
        cells: vec![
            pv.metadata.name.to_string(),
            pv.spec.capacity.get("storage").cloned().unwrap_or_else(|| "0".into()),
            access_modes(&pv.spec.access_modes),
            pv.spec.persistent_volume_reclaim_policy.clone(),
            phase.to_string(),
            pv.claim(),
            pv.spec.storage_class_name.clone(),
            "<unset>".into(),
            String::new(),
            since(now, pv.metadata.creation_timestamp.map(|t| t.0)),
            pv.spec.volume_mode.clone(),
        ],
        namespace: String::new(),
        name: pv.metadata.name.to_string(),
    }
}

/// `printVolumeAttachment`: NAME, ATTACHER, PV, NODE, ATTACHED, AGE.
pub fn volume_attachment_row(va: &VolumeAttachment, now: WallTime) -> Row {
    let attached = va.status.as_ref().is_some_and(|s| s.attached);
    Row {
        cells: vec![
            va.metadata.name.to_string(),
            va.spec.attacher.clone(),
            va.spec.source.persistent_volume_name.clone(),
            va.spec.node_name.clone(),
            attached.to_string(),
            since(now, va.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: String::new(),
        name: va.metadata.name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_modes_print_in_the_helpers_order() {
        assert_eq!(access_modes(&["ReadWriteMany".into(), "ReadWriteOnce".into()]), "RWO,RWX");
        assert_eq!(access_modes(&[]), "");
    }

    #[test]
    fn a_pending_claim_shows_no_capacity_and_a_bound_one_its_volume() {
        let mut claim = PersistentVolumeClaim::for_pod("db-0", Default::default());
        let row = claim_row(&claim, WallTime::default());
        assert_eq!(&row.cells[..7], ["data-db-0", "Pending", "", "", "", "standard-rwo", "<unset>"]);
        claim.spec.volume_name = "pvc-1".into();
        claim.status = claim.bound_status();
        let row = claim_row(&claim, WallTime::default());
        assert_eq!(&row.cells[..5], ["data-db-0", "Bound", "pvc-1", "1Gi", "RWO"]);
        assert_eq!(row.cells[8], "Filesystem");
    }
}
