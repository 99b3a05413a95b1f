//! The kinds the simulated API server stores, declared once in one table: each kind's API
//! identity (the fields of k8s-openapi's `Resource` trait: kind, group and version, the URL path
//! segment, the scope) and the names discovery gives kubectl (singular, short names). The table
//! makes [`Kind`], [`Object`] and [`Stored`]; the API paths, kubectl's resource names and the
//! API server's messages are read from it.

use std::sync::Arc;

use serde::Serialize;

use super::ObjectMeta;

/// What the API says of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// `kind:` (`CSINode`).
    pub kind: &'static str,
    /// `apiVersion:`: the group and the version (`storage.k8s.io/v1`), the version alone in the
    /// core group (`v1`).
    pub api_version: &'static str,
    /// The resource: the URL path segment (`csinodes`).
    pub plural: &'static str,
    pub singular: &'static str,
    /// The short names discovery advertises (`pvc`).
    pub short_names: &'static [&'static str],
    /// Whether objects live in namespaces.
    pub namespaced: bool,
}

/// The table: one row a kind, in the order `Kind` sorts (the order a snapshot lists kinds in).
/// Each row names the kind's Rust type in `objects`, which is also its [`Kind`] and [`Object`]
/// variant.
macro_rules! kinds {
    ($($ty:ident {
        kind: $kind:literal, api_version: $api_version:literal, plural: $plural:literal,
        singular: $singular:literal, short_names: [$($short:literal),*], namespaced: $namespaced:literal $(,)?
    })*) => {
        /// The kinds of object the simulated API server stores.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Kind {
            $($ty,)*
        }

        impl Kind {
            /// Every kind, in the table's order.
            pub const ALL: &'static [Kind] = &[$(Kind::$ty,)*];

            /// The kind's row of the table.
            pub const fn info(self) -> &'static KindInfo {
                match self {
                    $(Kind::$ty => &KindInfo {
                        kind: $kind,
                        api_version: $api_version,
                        plural: $plural,
                        singular: $singular,
                        short_names: &[$($short),*],
                        namespaced: $namespaced,
                    },)*
                }
            }
        }

        /// One version of any stored object. Versions are shared, never mutated.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Object {
            $($ty(Arc<super::$ty>),)*
        }

        impl Object {
            /// The object's metadata.
            pub fn meta(&self) -> &ObjectMeta {
                match self {
                    $(Object::$ty(o) => &o.metadata,)*
                }
            }

            /// The object's kind.
            pub fn kind(&self) -> Kind {
                match self {
                    $(Object::$ty(_) => Kind::$ty,)*
                }
            }
        }

        $(
            impl Stored for super::$ty {
                const KIND: Kind = Kind::$ty;
                fn from_object(object: Object) -> Option<Arc<Self>> {
                    match object {
                        Object::$ty(o) => Some(o),
                        _ => None,
                    }
                }
                fn of(object: &Object) -> Option<&Arc<Self>> {
                    match object {
                        Object::$ty(o) => Some(o),
                        _ => None,
                    }
                }
                fn into_object(this: Arc<Self>) -> Object {
                    Object::$ty(this)
                }
                fn meta(&self) -> &ObjectMeta {
                    &self.metadata
                }
                fn meta_mut(&mut self) -> &mut ObjectMeta {
                    &mut self.metadata
                }
            }

            impl From<super::$ty> for Object {
                fn from(o: super::$ty) -> Object {
                    Object::$ty(Arc::new(o))
                }
            }
        )*
    };
}

kinds! {
    Node {
        kind: "Node", api_version: "v1", plural: "nodes",
        singular: "node", short_names: ["no"], namespaced: false,
    }
    CsiNode {
        kind: "CSINode", api_version: "storage.k8s.io/v1", plural: "csinodes",
        singular: "csinode", short_names: [], namespaced: false,
    }
    Lease {
        kind: "Lease", api_version: "coordination.k8s.io/v1", plural: "leases",
        singular: "lease", short_names: [], namespaced: true,
    }
    Pod {
        kind: "Pod", api_version: "v1", plural: "pods",
        singular: "pod", short_names: ["po"], namespaced: true,
    }
    Event {
        kind: "Event", api_version: "v1", plural: "events",
        singular: "event", short_names: ["ev"], namespaced: true,
    }
    PodDisruptionBudget {
        kind: "PodDisruptionBudget", api_version: "policy/v1", plural: "poddisruptionbudgets",
        singular: "poddisruptionbudget", short_names: ["pdb"], namespaced: true,
    }
    DaemonSet {
        kind: "DaemonSet", api_version: "apps/v1", plural: "daemonsets",
        singular: "daemonset", short_names: ["ds"], namespaced: true,
    }
    VolumeAttachment {
        kind: "VolumeAttachment", api_version: "storage.k8s.io/v1", plural: "volumeattachments",
        singular: "volumeattachment", short_names: [], namespaced: false,
    }
    StatefulSet {
        kind: "StatefulSet", api_version: "apps/v1", plural: "statefulsets",
        singular: "statefulset", short_names: ["sts"], namespaced: true,
    }
    ControllerRevision {
        kind: "ControllerRevision", api_version: "apps/v1", plural: "controllerrevisions",
        singular: "controllerrevision", short_names: [], namespaced: true,
    }
    PersistentVolumeClaim {
        kind: "PersistentVolumeClaim", api_version: "v1", plural: "persistentvolumeclaims",
        singular: "persistentvolumeclaim", short_names: ["pvc"], namespaced: true,
    }
    PersistentVolume {
        kind: "PersistentVolume", api_version: "v1", plural: "persistentvolumes",
        singular: "persistentvolume", short_names: ["pv"], namespaced: false,
    }
    PriorityClass {
        kind: "PriorityClass", api_version: "scheduling.k8s.io/v1", plural: "priorityclasses",
        singular: "priorityclass", short_names: ["pc"], namespaced: false,
    }
    CertificateSigningRequest {
        kind: "CertificateSigningRequest", api_version: "certificates.k8s.io/v1", plural: "certificatesigningrequests",
        singular: "certificatesigningrequest", short_names: ["csr"], namespaced: false,
    }
    Secret {
        kind: "Secret", api_version: "v1", plural: "secrets",
        singular: "secret", short_names: [], namespaced: true,
    }
}

/// A kind of object the store holds: its [`Kind`], and its value out of an [`Object`].
pub trait Stored: Sized + 'static {
    const KIND: Kind;
    /// The object, if it is of this kind.
    fn from_object(object: Object) -> Option<Arc<Self>>;
    /// The object, borrowed, if it is of this kind.
    fn of(object: &Object) -> Option<&Arc<Self>>;
    /// The version as an [`Object`].
    fn into_object(this: Arc<Self>) -> Object;
    fn meta(&self) -> &ObjectMeta;
    fn meta_mut(&mut self) -> &mut ObjectMeta;
}

impl Kind {
    /// The kind's name as it appears in `kind:`.
    pub fn as_str(self) -> &'static str {
        self.info().kind
    }

    /// The kind whose `kind:` is `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// The API group, `""` for the core group.
    pub fn group(self) -> &'static str {
        self.info().api_version.rsplit_once('/').map_or("", |(group, _)| group)
    }

    /// The API version within the group (`v1`).
    pub fn version(self) -> &'static str {
        let api_version = self.info().api_version;
        api_version.rsplit_once('/').map_or(api_version, |(_, version)| version)
    }

    /// The resource's plural name, its URL path segment.
    pub fn plural(self) -> &'static str {
        self.info().plural
    }

    /// The resource's singular name.
    pub fn singular(self) -> &'static str {
        self.info().singular
    }

    /// The short names discovery advertises.
    pub fn short_names(self) -> &'static [&'static str] {
        self.info().short_names
    }

    /// Whether objects live in namespaces.
    pub fn namespaced(self) -> bool {
        self.info().namespaced
    }

    /// `plural.group` (`plural` in the core group), as the API server's messages name the
    /// resource.
    pub fn group_resource(self) -> String {
        match self.group() {
            "" => self.plural().to_string(),
            g => format!("{}.{g}", self.plural()),
        }
    }

    /// The lower-case `kind[.group]` kubectl puts before names (`node/node-1`,
    /// `lease.coordination.k8s.io/node-1`).
    pub fn kind_prefix(self) -> String {
        match self.group() {
            "" => self.as_str().to_ascii_lowercase(),
            g => format!("{}.{g}", self.as_str().to_ascii_lowercase()),
        }
    }

    /// The kind a kubectl resource argument names: plural, singular, short name or kind, in any
    /// case, optionally qualified by group or version and group (`nodes.v1.`,
    /// `leases.coordination.k8s.io`, `leases.v1.coordination.k8s.io`), as discovery's REST mapper
    /// resolves it.
    pub fn from_resource_arg(arg: &str) -> Option<Kind> {
        let arg = arg.to_ascii_lowercase();
        let (name, qualifier) = match arg.split_once('.') {
            Some((n, q)) => (n, Some(q)),
            None => (arg.as_str(), None),
        };
        Kind::ALL.iter().copied().find(|k| {
            let named = name == k.plural()
                || name == k.singular()
                || k.short_names().contains(&name)
                || name == k.as_str().to_ascii_lowercase();
            let qualified = match qualifier {
                None => true,
                Some(q) => {
                    let (group, version) = (k.group(), k.version());
                    q == group
                        || q.strip_prefix(version).and_then(|rest| rest.strip_prefix('.')) == Some(group)
                        || (group.is_empty() && q == version)
                }
            };
            named && qualified
        })
    }

    /// Appends the kind's API path to `out`: the collection (`/api/v1/nodes`,
    /// `/apis/apps/v1/namespaces/default/statefulsets`), then the object's `name` and a
    /// `subresource` when they are not empty. `namespace` is ignored for a cluster-scoped kind.
    pub fn push_path(self, out: &mut String, namespace: &str, name: &str, subresource: &str) {
        let info = self.info();
        out.push_str(if self.group().is_empty() { "/api/" } else { "/apis/" });
        out.push_str(info.api_version);
        if info.namespaced {
            out.push_str("/namespaces/");
            out.push_str(namespace);
        }
        out.push('/');
        out.push_str(info.plural);
        for part in [name, subresource] {
            if !part.is_empty() {
                out.push('/');
                out.push_str(part);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_names_resolve_like_discovery() {
        for (arg, want) in [
            ("nodes", Some(Kind::Node)),
            ("node", Some(Kind::Node)),
            ("no", Some(Kind::Node)),
            ("Node", Some(Kind::Node)),
            ("NODES", Some(Kind::Node)),
            ("nodes.v1.", Some(Kind::Node)),
            ("nodes.v1", Some(Kind::Node)),
            ("po", Some(Kind::Pod)),
            ("lease", Some(Kind::Lease)),
            ("leases.coordination.k8s.io", Some(Kind::Lease)),
            ("leases.v1.coordination.k8s.io", Some(Kind::Lease)),
            ("ev", Some(Kind::Event)),
            ("csinodes", Some(Kind::CsiNode)),
            ("csinode", Some(Kind::CsiNode)),
            ("CSINode", Some(Kind::CsiNode)),
            ("csinodes.storage.k8s.io", Some(Kind::CsiNode)),
            ("csinodes.v1.storage.k8s.io", Some(Kind::CsiNode)),
            ("pvc", Some(Kind::PersistentVolumeClaim)),
            ("sts.apps", Some(Kind::StatefulSet)),
            ("csr", Some(Kind::CertificateSigningRequest)),
            ("certificatesigningrequests", Some(Kind::CertificateSigningRequest)),
            ("csr.certificates.k8s.io", Some(Kind::CertificateSigningRequest)),
            ("csinodes.v1.", None),
            ("nodes.apps", None),
            ("leases.v2.coordination.k8s.io", None),
            ("deployments", None),
            ("", None),
        ] {
            assert_eq!(Kind::from_resource_arg(arg), want, "{arg}");
        }
    }

    #[test]
    fn paths_group_version_and_names_come_from_the_row() {
        let path = |k: Kind, ns: &str, name: &str, sub: &str| {
            let mut out = String::new();
            k.push_path(&mut out, ns, name, sub);
            out
        };
        assert_eq!(path(Kind::Node, "x", "", ""), "/api/v1/nodes");
        assert_eq!(path(Kind::Node, "", "node-1", "status"), "/api/v1/nodes/node-1/status");
        assert_eq!(path(Kind::Pod, "default", "web-1", "eviction"), "/api/v1/namespaces/default/pods/web-1/eviction");
        assert_eq!(
            path(Kind::Lease, "kube-node-lease", "node-1", ""),
            "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1"
        );
        assert_eq!(path(Kind::CsiNode, "", "", ""), "/apis/storage.k8s.io/v1/csinodes");
        assert_eq!((Kind::StatefulSet.group(), Kind::StatefulSet.version()), ("apps", "v1"));
        assert_eq!((Kind::Pod.group(), Kind::Pod.version()), ("", "v1"));
        assert_eq!(Kind::PodDisruptionBudget.group_resource(), "poddisruptionbudgets.policy");
        assert_eq!(Kind::PersistentVolume.group_resource(), "persistentvolumes");
        assert_eq!(Kind::Lease.kind_prefix(), "lease.coordination.k8s.io");
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.as_str()), Some(*k));
            assert_eq!(Kind::from_resource_arg(k.plural()), Some(*k));
        }
        assert!(Kind::ALL.windows(2).all(|w| w[0] < w[1]), "the table is in the order kinds sort");
    }
}
