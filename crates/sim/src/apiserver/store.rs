//! The store's generic handlers, for every kind it keeps whole in a map of its own: a version
//! stored with the next resourceVersion and logged, a create (`ApiOp::Create`, through the kind's
//! admission), a read, the two ends of a write (a PUT of its status, or a patch) and a delete. The kinds with handlers of
//! their own (Pods, with their indexes; Leases, kept compactly; Events, kept in the log only)
//! are not [`Kept`].

use std::borrow::Borrow;
use std::sync::Arc;

use super::errors::{already_exists, conflict, method_not_supported, not_found};
use super::{ApiServer, Exec};
use crate::objects::{Node, Object, ObjectMeta, Status, Stored, Text};
use crate::record::ChangeType;
use crate::shared::Shared;
use crate::vecmap::VecMap;

/// A kind the store keeps in a map of its own, by name or by namespace and name.
pub(crate) trait Kept: Stored + Clone + PartialEq {
    /// The map's key.
    type Key: Ord + Clone;
    /// Whether adding or removing one counts in [`ApiServer::membership`].
    const MEMBER: bool = false;
    fn key(meta: &ObjectMeta) -> Self::Key;
    fn map(api: &ApiServer) -> &Shared<VecMap<Self::Key, Arc<Self>>>;
    fn map_mut(api: &mut ApiServer) -> &mut Shared<VecMap<Self::Key, Arc<Self>>>;
    /// What a create adds to the object sent (admission, the registry's defaults): by default
    /// a uid and a creationTimestamp ([`ApiServer::new_meta`]).
    fn admit(api: &mut ApiServer, ctx: &mut Exec<'_>, object: &mut Self) {
        api.new_meta(ctx, object.meta_mut());
    }
}

/// The key of a cluster-scoped kind's map.
fn by_name(meta: &ObjectMeta) -> String {
    meta.name.to_string()
}

/// The key of a namespaced kind's map.
fn by_namespace(meta: &ObjectMeta) -> (String, String) {
    (meta.namespace.to_string(), meta.name.to_string())
}

/// `Kept` for each kind: its map in [`ApiServer`], how the map is keyed, and its create's
/// admission when it is not the default; and [`ApiServer::create`], a `POST` of any of them.
macro_rules! kept {
    ($($ty:ident => $map:ident: $key:ty = $by:expr $(, admit = $admit:path)?;)*) => {
        $(
            impl Kept for crate::objects::$ty {
                type Key = $key;
                fn key(meta: &ObjectMeta) -> $key {
                    $by(meta)
                }
                fn map(api: &ApiServer) -> &Shared<VecMap<$key, Arc<Self>>> {
                    &api.$map
                }
                fn map_mut(api: &mut ApiServer) -> &mut Shared<VecMap<$key, Arc<Self>>> {
                    &mut api.$map
                }
                $(
                    fn admit(api: &mut ApiServer, ctx: &mut Exec<'_>, object: &mut Self) {
                        $admit(api, ctx, object)
                    }
                )?
            }
        )*

        impl ApiServer {
            /// `POST` of a new object of a kept kind: 409 if its name is taken, else admitted and
            /// stored. (A Node's create has more to it, and a Pod or a Lease is not kept.)
            pub(super) fn create(&mut self, ctx: &mut Exec<'_>, object: Object) -> Result<Object, Box<Status>> {
                match object {
                    $(Object::$ty(o) => self.create_kept(ctx, Arc::unwrap_or_clone(o)),)*
                    // (Never sent: a Node, a Pod and a Lease have requests of their own.)
                    other => Err(method_not_supported(other.kind(), "create")),
                }
            }
        }
    };
}

kept! {
    CsiNode => csinodes: String = by_name, admit = ApiServer::admit_csinode;
    PodDisruptionBudget => pdbs: (String, String) = by_namespace, admit = ApiServer::admit_first_generation;
    DaemonSet => daemonsets: (String, String) = by_namespace, admit = ApiServer::admit_first_generation;
    VolumeAttachment => volume_attachments: String = by_name;
    StatefulSet => statefulsets: (String, String) = by_namespace, admit = ApiServer::admit_first_generation;
    ControllerRevision => revisions: (String, String) = by_namespace;
    PersistentVolumeClaim => claims: (String, String) = by_namespace, admit = ApiServer::admit_claim;
    PersistentVolume => volumes: String = by_name, admit = ApiServer::admit_volume;
    PriorityClass => priority_classes: String = by_name;
    CertificateSigningRequest => csrs: String = by_name;
    Secret => secrets: (String, String) = by_namespace;
}

/// Nodes count in `membership` (the node lifecycle controller pairs its entries with them).
impl Kept for Node {
    type Key = Text;
    const MEMBER: bool = true;
    fn key(meta: &ObjectMeta) -> Text {
        meta.name.clone()
    }
    fn map(api: &ApiServer) -> &Shared<VecMap<Text, Arc<Node>>> {
        &api.nodes
    }
    fn map_mut(api: &mut ApiServer) -> &mut Shared<VecMap<Text, Arc<Node>>> {
        &mut api.nodes
    }
}

impl ApiServer {
    /// Stores `object` with the next resourceVersion (removes it, for a delete) and logs the
    /// change. A deleted object's last version carries the delete's revision, as a watch's
    /// `DELETED` event does.
    pub(super) fn store<T: Kept>(&mut self, ctx: &mut Exec<'_>, mut object: T, change: ChangeType) -> Object {
        object.meta_mut().resource_version = self.next_rv();
        let object = Arc::new(object);
        let key = T::key(object.meta());
        let map = T::map_mut(self);
        let member = if change == ChangeType::Deleted {
            map.remove(&key).is_some()
        } else {
            match map.get_mut(&key) {
                Some(slot) => {
                    *slot = object.clone();
                    false
                }
                None => map.insert(key, object.clone()).is_none(),
            }
        };
        if T::MEMBER && member {
            self.membership += 1;
        }
        let object = T::into_object(object);
        ctx.log.push_change(ctx.now, change, object.clone(), ctx.request);
        object
    }

    /// The stored object under `key` (named `name`), or 404.
    pub(super) fn current<T: Kept, Q: Ord + ?Sized>(&self, key: &Q, name: &str) -> Result<&Arc<T>, Box<Status>>
    where
        T::Key: Borrow<Q>,
    {
        T::map(self).get(key).ok_or_else(|| not_found(T::KIND, name))
    }

    /// A `GET`.
    pub(super) fn get<T: Kept, Q: Ord + ?Sized>(&self, key: &Q, name: &str) -> Result<Object, Box<Status>>
    where
        T::Key: Borrow<Q>,
    {
        self.current::<T, Q>(key, name).map(|o| T::into_object(o.clone()))
    }

    /// A create of a kept kind: the name free, else 409; then admitted and stored.
    fn create_kept<T: Kept>(&mut self, ctx: &mut Exec<'_>, mut object: T) -> Result<Object, Box<Status>> {
        self.check_new::<T>(object.meta())?;
        T::admit(self, ctx, &mut object);
        Ok(self.store(ctx, object, ChangeType::Added))
    }

    /// The admission of a kind whose objects have a `metadata.generation`: a uid, a
    /// creationTimestamp and generation 1.
    fn admit_first_generation<T: Kept>(&mut self, ctx: &mut Exec<'_>, object: &mut T) {
        self.new_meta(ctx, object.meta_mut());
        object.meta_mut().generation = Some(1);
    }

    /// A create's check that the name is free, else 409.
    pub(super) fn check_new<T: Kept>(&self, meta: &ObjectMeta) -> Result<(), Box<Status>> {
        match T::map(self).get(&T::key(meta)) {
            Some(_) => Err(already_exists(T::KIND, &meta.name)),
            None => Ok(()),
        }
    }

    /// The start of a write: the stored version under `key` (named `name`), or 404, and a copy
    /// of it to change.
    pub(super) fn edit<T: Kept, Q: Ord + ?Sized>(&self, key: &Q, name: &str) -> Result<(Arc<T>, T), Box<Status>>
    where
        T::Key: Borrow<Q>,
    {
        let current = self.current::<T, Q>(key, name)?;
        Ok((current.clone(), T::clone(current)))
    }

    /// The end of a write that changes nothing when `next` equals `current`: the stored
    /// version answered, and none stored.
    pub(super) fn store_changed<T: Kept>(&mut self, ctx: &mut Exec<'_>, current: Arc<T>, next: T) -> Object {
        if next == *current {
            return T::into_object(current);
        }
        self.store(ctx, next, ChangeType::Modified)
    }

    /// A PUT's optimistic concurrency check: the version written must be the stored one, else 409.
    pub(super) fn check_rv<T: Kept>(current: &T, wanted: &ObjectMeta) -> Result<(), Box<Status>> {
        if current.meta().resource_version != wanted.resource_version {
            return Err(conflict(T::KIND, &wanted.name));
        }
        Ok(())
    }

    /// A `DELETE` of the object under `key` (named `name`), with `precondition_uid` when the
    /// client sent one (409 unless the stored object has it).
    pub(super) fn delete<T: Kept, Q: Ord + ?Sized>(
        &mut self,
        ctx: &mut Exec<'_>,
        key: &Q,
        name: &str,
        precondition_uid: Option<&str>,
    ) -> Result<Object, Box<Status>>
    where
        T::Key: Borrow<Q>,
    {
        let current = self.current::<T, Q>(key, name)?;
        if precondition_uid.is_some_and(|uid| current.meta().uid != uid) {
            return Err(conflict(T::KIND, name));
        }
        let gone = T::clone(current);
        Ok(self.store(ctx, gone, ChangeType::Deleted))
    }
}
