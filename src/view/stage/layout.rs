//! Where everything on the stage goes: the two layouts, the machines' boxes, the control plane,
//! the arrows between them, and the stored objects below ([`super::store`]).

use super::geometry::{CH_MONO, CH_SANS, Pt, Rect, Route, dist, fit, round_rect};
use super::packets::Timing;
use super::scene::{
    ActorBox, AttachedVolume, ContainerList, ControlPlane, Health, Line, MachineBox, RuntimeBox, Scene, Sender,
    StateChip, VolumeRow,
};
use super::store::store;
use crate::i18n::{Key, Lang};
use crate::sim::{KubeletState, MachineView, SimTime};
use crate::view::session::Session;

/// Container rows drawn per machine (more are summarised).
const MAX_CONTAINER_ROWS: usize = 4;
/// Pod rows drawn (more are summarised).
/// The two arrangements of the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Machines in a row on top (two rows past three machines), the control plane below them,
    /// the stored objects at the bottom in three columns.
    Wide,
    /// Everything in one column, for phones: the machines, then kubectl, then the control plane
    /// with the API server across its foot (every arrow comes down into it), then the stored
    /// objects. Narrow enough that a 360 px phone draws its smallest text at 12 CSS px.
    Narrow,
}

impl Layout {
    /// Containers narrower than this (CSS px) get the narrow layout.
    pub const BREAKPOINT: f64 = 600.0;
    /// Windows narrower than this (CSS px: phones, up to 767 px) get it whatever the stage's width.
    pub const PHONE: f64 = 768.0;

    /// The layout for a stage container `px` CSS pixels wide in a window `window` px wide.
    pub fn for_width(px: f64, window: f64) -> Layout {
        let phone = window > 0.0 && window < Layout::PHONE;
        if px > 0.0 && (px < Layout::BREAKPOINT || phone) { Layout::Narrow } else { Layout::Wide }
    }

    /// The advance of one character of the drawing's monospace text, in user units: the wide
    /// drawing sets it at 11 units, the narrow one at 10 (style/stage.css), so that each is at
    /// least 12 CSS px where the page gives the stage its room.
    pub(super) fn ch_mono(self) -> f32 {
        match self {
            Layout::Wide => CH_MONO * 1.1,
            Layout::Narrow => CH_MONO,
        }
    }

    /// The view box width, in user units. The narrow one is drawn at least 1.2 times larger on a
    /// 360 px phone (its stage is 326 px wide), so the 10-unit text is 12 CSS px.
    pub fn width(self) -> f32 {
        match self {
            Layout::Wide => 800.0,
            Layout::Narrow => 268.0,
        }
    }
}
fn containers_title(lang: Lang, n: usize) -> String {
    match n {
        0 => lang.text(Key::NoContainers).to_string(),
        1 => lang.text(Key::OneContainerRunning).to_string(),
        n => lang.fill(Key::ContainersRunning, &[&n.to_string()]),
    }
}

/// Chip, row and gap sizes.
pub(super) const PAD: f32 = 8.0;
pub(super) const CHIP_H: f32 = 22.0;
pub(super) const ROW_H: f32 = 20.0;
pub(super) const GAP: f32 = 6.0;

/// What decides a machine box's height.
#[derive(Clone, Copy)]
struct MachineMetrics {
    header: f32,
    /// Rows of the kubelet's credentials ([`credential_rows`]).
    credentials: usize,
    cni: bool,
    rows: usize,
    volumes: usize,
}

impl MachineMetrics {
    fn of(m: &MachineView, volumes: usize, w: f32, ch_mono: f32) -> MachineMetrics {
        let n = m.containers.len();
        MachineMetrics {
            header: if ip_inline(m, w, ch_mono) { 26.0 } else { 40.0 },
            credentials: credential_count(m),
            cni: !m.cni_ready,
            rows: if n > MAX_CONTAINER_ROWS { MAX_CONTAINER_ROWS } else { n },
            volumes,
        }
    }

    fn volumes_h(&self) -> f32 {
        self.volumes as f32 * (ROW_H + GAP)
    }

    fn runtime_h(&self) -> f32 {
        24.0 + if self.cni { ROW_H + 4.0 } else { 0.0 } + 18.0 + self.rows as f32 * (ROW_H + 2.0) + 6.0
    }

    fn credentials_h(&self) -> f32 {
        self.credentials as f32 * (ROW_H + GAP)
    }

    fn height(&self) -> f32 {
        self.header + CHIP_H + GAP + self.credentials_h() + self.runtime_h() + GAP + self.volumes_h() + CHIP_H + PAD
    }
}

/// How many rows a machine's credentials take: none for a machine that started with them; for
/// one that bootstraps them, its client credentials and, once issued, its serving certificate.
fn credential_count(m: &MachineView) -> usize {
    if m.bootstrap { 1 + usize::from(m.serving_certificate.is_some()) } else { 0 }
}

/// The rows of a bootstrapping machine's credentials, the first at `first`: the bootstrap
/// kubeconfig alone until the client certificate is issued, then each current certificate's
/// symlink in `/var/lib/kubelet/pki` (the file it points at in the accessible name).
fn credential_rows(m: &MachineView, first: Rect, ch_mono: f32, lang: Lang) -> Vec<StateChip> {
    use crate::sim::machine::{BOOTSTRAP_KUBECONFIG, KUBELET_PKI_DIR};
    if !m.bootstrap {
        return Vec::new();
    }
    let part = |text: &str| lang.fill(Key::StagePart, &[&m.name, text]);
    let link = |rect: Rect, kind: &str, file: &str| {
        let current = format!("kubelet-{kind}-current.pem");
        let path = format!("{KUBELET_PKI_DIR}/{current}");
        StateChip {
            rect,
            health: Health::Ok,
            text: fit(&current, rect.w - 30.0, ch_mono),
            label: part(&lang.fill(Key::CertificateLink, &[&path, file])),
        }
    };
    let mut rows = vec![match &m.client_certificate {
        Some(cert) => link(first, "client", &cert.file),
        None => StateChip {
            rect: first,
            health: Health::Warn,
            text: fit(lang.text(Key::BootstrapOnly), first.w - 30.0, CH_SANS),
            label: part(&lang.fill(Key::BootstrapOnlyLabel, &[BOOTSTRAP_KUBECONFIG, KUBELET_PKI_DIR])),
        },
    }];
    if let Some(cert) = &m.serving_certificate {
        rows.push(link(Rect { y: first.y + ROW_H + GAP, ..first }, "server", &cert.file));
    }
    rows
}

fn ip_inline(m: &MachineView, w: f32, ch_mono: f32) -> bool {
    (m.name.chars().count() as f32 * 7.8 + m.ip.chars().count() as f32 * ch_mono + 40.0) <= w
}

fn machine_box(m: &MachineView, volumes: &[AttachedVolume], rect: Rect, layout: Layout, lang: Lang) -> MachineBox {
    let ch_mono = layout.ch_mono();
    let metrics = MachineMetrics::of(m, volumes.len(), rect.w, ch_mono);
    let inner_w = rect.w - 2.0 * PAD;
    let x = rect.x + PAD;
    let part = |text: &str| lang.fill(Key::StagePart, &[&m.name, text]);

    let mut y = rect.y + metrics.header;
    let (health, key) = match m.kubelet {
        // The whole machine is off: not a kubelet that stopped on a running machine.
        _ if m.powered_off => (Health::Down, Key::MachinePoweredOff),
        KubeletState::Running => (Health::Ok, Key::KubeletRunning),
        KubeletState::Restarting { .. } => (Health::Warn, Key::KubeletRestarting),
        KubeletState::Stopped => (Health::Down, Key::KubeletStopped),
    };
    let kubelet_rect = Rect::new(x, y, inner_w, CHIP_H);
    let kubelet = StateChip {
        rect: kubelet_rect,
        health,
        text: fit(lang.text(key), inner_w - 30.0, CH_SANS),
        label: part(lang.text(key)),
    };
    y += CHIP_H + GAP;
    let credentials = credential_rows(m, Rect::new(x, y, inner_w, ROW_H), ch_mono, lang);
    y += metrics.credentials_h();

    // containerd, with the containers it runs inside its box.
    let rt_rect = Rect::new(x, y, inner_w, rect.bottom() - PAD - CHIP_H - GAP - metrics.volumes_h() - y);
    // Nothing runs on a machine without power, whatever containerd's unit says.
    let runtime_up = m.runtime_up && !m.powered_off;
    let rt_key = if runtime_up { Key::RuntimeUp } else { Key::RuntimeDown };
    let mut rt_label = part(lang.text(rt_key));
    let chip = StateChip {
        rect: Rect::new(x, y, inner_w, 24.0),
        health: if runtime_up { Health::Ok } else { Health::Down },
        text: fit(lang.text(rt_key), inner_w - 30.0, CH_SANS),
        label: String::new(),
    };
    let mut cy = y + 24.0;
    let cni = if m.cni_ready {
        None
    } else {
        let text = lang.text(Key::CniNotReady);
        rt_label = format!("{rt_label}; {text}");
        let r = Rect::new(x + PAD, cy, inner_w - 2.0 * PAD, ROW_H);
        cy += ROW_H + 4.0;
        Some((r, fit(text, r.w - 24.0, CH_SANS)))
    };
    let chip = StateChip { label: rt_label, ..chip };
    let n = m.containers.len();
    let title = containers_title(lang, n);
    let shown = if n > MAX_CONTAINER_ROWS { MAX_CONTAINER_ROWS - 1 } else { n };
    let list_rect = Rect::new(x + PAD, cy, inner_w - 2.0 * PAD, 18.0 + metrics.rows as f32 * (ROW_H + 2.0));
    let mut rows = Vec::with_capacity(shown);
    let mut ry = cy + 18.0;
    for c in m.containers.iter().take(shown) {
        let r = Rect::new(list_rect.x, ry, list_rect.w, ROW_H);
        rows.push((r, fit(&format!("{}/{}", c.pod, c.name), r.w - 22.0, ch_mono)));
        ry += ROW_H + 2.0;
    }
    let more = (n > shown).then(|| {
        (Rect::new(list_rect.x, ry, list_rect.w, ROW_H), lang.fill(Key::MoreItems, &[&(n - shown).to_string()]))
    });
    let names: Vec<String> = m.containers.iter().map(|c| format!("{}/{}", c.pod, c.name)).collect();
    let list_label = if names.is_empty() { part(&title) } else { format!("{}: {}", part(&title), names.join(", ")) };
    let containers = ContainerList { rect: list_rect, title, rows, more, label: list_label };

    // The volumes attached to the machine's Node, between containerd and the network.
    let mut vy = rt_rect.bottom() + GAP;
    let volumes = volumes
        .iter()
        .map(|v| {
            let key = if v.attached { Key::VolumeAttachedHere } else { Key::VolumeAttachingHere };
            let state = lang.fill(key, &[&v.pv]);
            let (text, label) = match &v.pod {
                Some(pod) => (format!("{pod}: {}", v.pv), part(&lang.fill(Key::VolumeUsedBy, &[&state, pod]))),
                None => (v.pv.clone(), part(&state)),
            };
            let r = Rect::new(x, vy, inner_w, ROW_H);
            vy += ROW_H + GAP;
            let object = format!("VolumeAttachment//{}", v.attachment);
            VolumeRow { rect: r, text: fit(&text, inner_w - 30.0, ch_mono), attached: v.attached, label, object }
        })
        .collect();

    let net_key = if m.network_cut { Key::NetworkCut } else { Key::NetworkOk };
    let network = StateChip {
        rect: Rect::new(x, rect.bottom() - PAD - CHIP_H, inner_w, CHIP_H),
        health: if m.network_cut { Health::Down } else { Health::Ok },
        text: fit(lang.text(net_key), inner_w - 30.0, CH_SANS),
        label: part(lang.text(net_key)),
    };
    MachineBox {
        name: m.name.to_string(),
        ip: m.ip.to_string(),
        rect,
        ip_inline: metrics.header < 30.0,
        label: lang.fill(Key::Machine, &[&format!("{} ({})", m.name, m.ip)]),
        kubelet,
        credentials,
        runtime: RuntimeBox { rect: rt_rect, chip, cni, containers },
        volumes,
        network,
        powered_off: m.powered_off,
    }
}

/// The volumes attached (or being attached) to `hostname`'s Node at the snapshot's instant, each
/// with the StatefulSet Pod there that uses it.
fn attached_volumes(snapshot: &crate::sim::Snapshot<'_>, hostname: &str) -> Vec<AttachedVolume> {
    let pods = snapshot.pods();
    let pod = pods
        .iter()
        .find(|p| p.spec.node_name == hostname && p.metadata.labels.contains_key(STATEFULSET_POD_NAME))
        .map(|p| p.metadata.name.to_string());
    snapshot
        .volume_attachments()
        .iter()
        .filter(|va| va.spec.node_name == hostname)
        .map(|va| AttachedVolume {
            pv: va.spec.source.persistent_volume_name.clone(),
            attachment: va.metadata.name.to_string(),
            attached: va.status.as_ref().is_some_and(|s| s.attached),
            pod: pod.clone(),
        })
        .collect()
}

/// The label the StatefulSet controller gives each of its Pods.
pub(super) const STATEFULSET_POD_NAME: &str = "statefulset.kubernetes.io/pod-name";

impl Scene {
    /// The stage at `t` (without packets), laid out for `layout`. `timing` only decides when
    /// changed objects are lit (while the packet that changed them shows its answer).
    pub fn build(session: &Session, t: SimTime, timing: Timing, layout: Layout, lang: Lang) -> Scene {
        Scene::build_with(session, t, timing, layout, lang, false)
    }

    /// [`Scene::build`], with a row for every Pod (`all_pods`: the reader expanded the list)
    /// rather than the first few and a "+N more" button.
    pub fn build_with(
        session: &Session,
        t: SimTime,
        timing: Timing,
        layout: Layout,
        lang: Lang,
        all_pods: bool,
    ) -> Scene {
        let snapshot = session.at(t);
        let machines = snapshot.machines();
        let views: Vec<&MachineView> = machines.iter().map(|m| &**m).collect();
        let width = layout.width();
        let narrow = layout == Layout::Narrow;

        // Machines: a row (two rows past three machines), or a column.
        let count = views.len();
        let cols = if narrow { 1 } else { count.div_ceil(count.div_ceil(3).max(1)).max(1) };
        // Narrow: the machines' links run down the right edge, one lane each, outermost first.
        let lane = |i: usize| width - PAD - 8.0 - 6.0 * i as f32;
        let lanes_left = lane(count.saturating_sub(1));
        let mw = if narrow {
            (lanes_left - 8.0 - PAD).floor()
        } else {
            ((width - 2.0 * PAD - (cols as f32 - 1.0) * 12.0) / cols as f32).min(360.0).floor()
        };
        let volumes: Vec<Vec<AttachedVolume>> =
            views.iter().map(|m| attached_volumes(&snapshot, &m.hostname)).collect();
        let mh = views
            .iter()
            .zip(&volumes)
            .map(|(m, v)| MachineMetrics::of(m, v.len(), mw, layout.ch_mono()).height())
            .fold(0.0f32, f32::max);
        let mut boxes = Vec::with_capacity(count);
        for (i, m) in views.iter().enumerate() {
            let (row, col) = (i / cols, i % cols);
            let in_row = (count - row * cols).min(cols) as f32;
            let row_w = in_row * mw + (in_row - 1.0) * 12.0;
            let x = if narrow { PAD } else { ((width - row_w) / 2.0).floor() + col as f32 * (mw + 12.0) };
            boxes.push(machine_box(m, &volumes[i], Rect::new(x, PAD + row as f32 * (mh + 12.0), mw, mh), layout, lang));
        }
        let machines_bottom = boxes.iter().map(|b| b.rect.bottom()).fold(PAD, f32::max);

        // Control plane.
        // Narrow: kubectl (outside the control plane) first, then the controller manager and the
        // scheduler, and the API server across the foot; each client's arrow turns down its own
        // channel between the boxes and the machines' lanes, the topmost outermost.
        const ACTORS: usize = 7;
        let channel = |j: usize| lanes_left - 8.0 - 5.0 * (ACTORS - 1 - j) as f32;
        let kubectl_top = machines_bottom + 14.0;
        let cp_top = if narrow { kubectl_top + 30.0 + 14.0 } else { machines_bottom + 58.0 };
        let inner = cp_top + 26.0;
        let chip_step = CHIP_H + 6.0;
        let cm_h = 24.0 + 5.0 * chip_step + 2.0;
        let (cm, api, sched, kubectl) = if narrow {
            let w = (channel(0) - 6.0 - (PAD + 4.0)).floor();
            let kubectl = Rect::new(PAD + 4.0, kubectl_top, w, 30.0);
            let cm = Rect::new(PAD + 4.0, inner, w, cm_h);
            let sched = Rect::new(cm.x, cm.bottom() + 10.0, w, 30.0);
            let api = Rect::new(PAD + 4.0, sched.bottom() + 26.0, width - 2.0 * PAD - 8.0, 30.0);
            (cm, api, sched, kubectl)
        } else {
            let cm = Rect::new(PAD + 8.0, inner, 232.0, cm_h);
            let api = Rect::new(((width - 150.0) / 2.0).floor(), inner, 150.0, cm_h);
            let rx = width - PAD - 8.0 - 200.0;
            let sched = Rect::new(rx, inner, 200.0, 40.0);
            let kubectl = Rect::new(rx, inner + cm_h - 30.0, 200.0, 30.0);
            (cm, api, sched, kubectl)
        };
        let cp_bottom = api.bottom().max(cm.bottom()).max(sched.bottom()) + 10.0;
        let frame = if narrow {
            vec![
                Pt { x: PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_bottom },
                Pt { x: PAD, y: cp_bottom },
            ]
        } else {
            let notch_x = kubectl.x - 10.0;
            let notch_y = kubectl.y - 10.0;
            vec![
                Pt { x: PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_top },
                Pt { x: width - PAD, y: notch_y },
                Pt { x: notch_x, y: notch_y },
                Pt { x: notch_x, y: cp_bottom },
                Pt { x: PAD, y: cp_bottom },
            ]
        };
        let controllers = [
            (Sender::NodeLifecycle, Key::NodeLifecycleController, "nlc"),
            (Sender::TaintEviction, Key::TaintEvictionController, "eviction"),
            (Sender::ReplicaSet, Key::ReplicaSetController, "replicaset"),
            (Sender::IpamTtl, Key::IpamTtlControllers, ""),
            (Sender::PodGc, Key::PodGcControllers, ""),
        ];
        let mut actors = Vec::new();
        for (i, (sender, key, target)) in controllers.into_iter().enumerate() {
            let rect = Rect::new(cm.x + PAD, cm.y + 24.0 + i as f32 * chip_step, cm.w - 2.0 * PAD, CHIP_H);
            actors.push(ActorBox {
                sender,
                rect,
                text: fit(lang.text(key), rect.w - 28.0, CH_SANS),
                target: (!target.is_empty()).then_some(target),
                component: false,
            });
        }
        actors.push(ActorBox {
            sender: Sender::Scheduler,
            rect: sched,
            text: lang.text(Key::Scheduler).to_string(),
            target: Some("scheduler"),
            component: true,
        });
        actors.push(ActorBox {
            sender: Sender::Kubectl,
            rect: kubectl,
            text: lang.text(Key::KubectlClient).to_string(),
            target: None,
            component: true,
        });

        // Arrows.
        let mut lines = Vec::new();
        let machines_bottom_row = boxes.iter().map(|b| b.rect.y).fold(PAD, f32::max);
        // Vertical channels between the boxes of the lowest row, for the links of the rows above.
        let lowest: Vec<Rect> = boxes.iter().map(|b| b.rect).filter(|r| r.y == machines_bottom_row).collect();
        let channels: Vec<f32> = lowest.windows(2).map(|w| (w[0].right() + w[1].x) / 2.0).collect();
        let mut channel_use: Vec<u32> = vec![0; channels.len()];
        for (i, b) in boxes.iter().enumerate() {
            let net = b.network.rect;
            let (route, cut_at) = if narrow {
                let lane = lane(i);
                let start = Pt { x: b.rect.right(), y: net.cy() };
                let pts = vec![start, Pt { x: lane, y: start.y }, Pt { x: lane, y: api.y }];
                let route = Route::new(pts);
                let cut = ((lane - start.x) + 22.0) / route.length().max(1.0);
                (route, cut.min(0.5))
            } else {
                let slot = api.x + api.w * (i as f32 + 1.0) / (count as f32 + 1.0);
                let start = Pt { x: b.rect.cx(), y: b.rect.bottom() };
                let mut pts = vec![start];
                let blocked = lowest.iter().any(|r| r.y > b.rect.y && r.x < start.x && start.x < r.right());
                if blocked && !channels.is_empty() {
                    // Down the gap between the boxes below, nearest first, then nearest the middle.
                    let k = (0..channels.len())
                        .min_by(|&a, &c| {
                            let score =
                                |j: usize| (channels[j] - start.x).abs() + (channels[j] - width / 2.0).abs() * 0.01;
                            score(a).total_cmp(&score(c))
                        })
                        .unwrap_or(0);
                    let x = channels[k] + [0.0, -3.0, 3.0][channel_use[k] as usize % 3];
                    channel_use[k] += 1;
                    let y = b.rect.bottom() + 6.0;
                    pts.extend([Pt { x: start.x, y }, Pt { x, y }, Pt { x, y: machines_bottom + 10.0 }]);
                } else {
                    pts.push(Pt { x: start.x, y: machines_bottom + 10.0 });
                }
                let before = Route::new(pts.clone()).length();
                let diag_from = *pts.last().unwrap_or(&start);
                let diag_to = Pt { x: slot, y: api.y - 14.0 };
                pts.extend([diag_to, Pt { x: slot, y: api.y }]);
                let route = Route::new(pts);
                // Cut halfway down the open stretch between the machines and the API server.
                let cut = (before + 0.45 * dist(diag_from, diag_to)) / route.length().max(1.0);
                (route, cut)
            };
            lines.push(Line {
                sender: Sender::Machine(b.name.clone()),
                route,
                cut_at: Some(cut_at),
                cut: b.network.health == Health::Down,
                target: Some("network"),
            });
        }
        // Topmost first: kubectl, the controllers, the scheduler.
        let mut order: Vec<&ActorBox> = actors.iter().collect();
        order.sort_by(|a, b| a.rect.y.total_cmp(&b.rect.y));
        for a in &actors {
            let y = a.rect.cy();
            let route = if narrow {
                let j = order.iter().position(|o| std::ptr::eq(*o, a)).unwrap_or(0);
                let x = channel(j);
                let from = a.rect.right() + if a.component { 0.0 } else { PAD };
                Route::new(vec![Pt { x: from, y }, Pt { x, y }, Pt { x, y: api.y }])
            } else if a.rect.x < api.x {
                Route::new(vec![Pt { x: a.rect.right() + if a.component { 0.0 } else { PAD }, y }, Pt { x: api.x, y }])
            } else {
                Route::new(vec![Pt { x: a.rect.x, y }, Pt { x: api.right(), y }])
            };
            lines.push(Line { sender: a.sender.clone(), route, cut_at: None, cut: false, target: None });
        }

        let control_plane = ControlPlane {
            frame,
            title: lang.text(Key::ControlPlane).to_string(),
            title_at: Pt { x: PAD + 10.0, y: cp_top + 17.0 },
            apiserver: api,
            apiserver_text: lang.text(Key::ApiServer).to_string(),
            manager: cm,
            manager_title: fit(lang.text(Key::ControllerManager), cm.w - 16.0, 7.0),
            actors,
        };
        let cp_end = control_plane.frame.iter().map(|p| p.y).fold(0.0f32, f32::max);

        // Stored objects.
        let store_top = cp_end + 26.0;
        let store = store(&snapshot, session, timing, layout, store_top, lang, all_pods);
        let storage_link = (Pt { x: api.cx(), y: api.bottom() }, Pt { x: api.cx(), y: store_top });
        let height = store.frame.bottom() + PAD;

        Scene {
            layout,
            width,
            height,
            machines: boxes.into_iter().map(round_machine).collect(),
            lines,
            control_plane,
            storage_link,
            store,
        }
    }
}

fn round_machine(mut b: MachineBox) -> MachineBox {
    b.rect = round_rect(b.rect);
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Chapter;
    use crate::view::stage::fixtures::scene_at;

    #[test]
    fn a_cut_network_is_drawn_cut() {
        let s = scene_at(Chapter::Registration, "cut-network@1m", 90, Layout::Wide);
        let m = &s.machines[0];
        assert_eq!(m.network.health, Health::Down);
        assert_eq!(m.network.label, "node-1: network to the API server cut");
        assert!(s.lines[0].cut);
        let s = scene_at(Chapter::Registration, "", 90, Layout::Wide);
        assert!(!s.lines[0].cut);
        assert_eq!(s.machines[0].network.health, Health::Ok);
    }

    /// node-1 running, with nothing on it.
    fn node_1() -> MachineView {
        MachineView {
            name: "node-1".into(),
            hostname: "node-1".into(),
            ip: "10.0.0.11".into(),
            kubelet: KubeletState::Running,
            runtime_up: true,
            cni_ready: true,
            network_cut: false,
            containers: Vec::new().into(),
            powered_off: false,
            leaks: Vec::new().into(),
            zone: String::new(),
            bootstrap: false,
            client_certificate: None,
            serving_certificate: None,
        }
    }

    #[test]
    fn a_restarting_kubelet_has_its_own_shape_and_text() {
        let m = MachineView { kubelet: KubeletState::Restarting { why: "x".into() }, runtime_up: false, ..node_1() };
        let b = machine_box(&m, &[], Rect::new(0.0, 0.0, 360.0, 200.0), Layout::Wide, Lang::En);
        assert_eq!(b.kubelet.health, Health::Warn);
        assert_eq!(b.kubelet.text, "kubelet exited, systemd restarts it in 10 s");
        assert_eq!(b.runtime.chip.health, Health::Down);
        assert_eq!(b.runtime.chip.label, "node-1: containerd stopped");
        assert_eq!(b.runtime.containers.title, "no containers");
    }

    /// A machine that bootstraps its credentials shows them, one row each, under its kubelet: the
    /// bootstrap kubeconfig alone, then the symlinks in `/var/lib/kubelet/pki`; the box grows to
    /// hold them and a machine with its credentials has none.
    #[test]
    fn a_bootstrapping_machine_shows_its_credentials() {
        use crate::sim::machine::ClientCertificate;
        use crate::sim::time::WallTime;
        let cert = |file: &str| {
            Some(std::sync::Arc::new(ClientCertificate {
                file: file.into(),
                csr: "csr".into(),
                not_before: WallTime(0),
                not_after: WallTime(1),
            }))
        };
        let mut m = node_1();
        let rect = Rect::new(0.0, 0.0, 360.0, 240.0);
        let height = |m: &MachineView| MachineMetrics::of(m, 0, 360.0, 7.8).height();
        let plain = height(&m);
        assert!(machine_box(&m, &[], rect, Layout::Wide, Lang::En).credentials.is_empty());
        m.bootstrap = true;
        let b = machine_box(&m, &[], rect, Layout::Wide, Lang::En);
        assert_eq!(b.credentials.len(), 1);
        assert_eq!(b.credentials[0].health, Health::Warn);
        assert_eq!(b.credentials[0].text, "bootstrap token only, no certificate");
        assert_eq!(
            b.credentials[0].label,
            "node-1: the kubelet has only its bootstrap kubeconfig, /etc/kubernetes/bootstrap-kubelet.conf; no \
             certificate in /var/lib/kubelet/pki yet"
        );
        assert_eq!(height(&m), plain + ROW_H + GAP);
        assert!(b.credentials[0].rect.bottom() < b.runtime.rect.y, "above containerd");
        m.client_certificate = cert("kubelet-client-2026-01-01-00-00-05.pem");
        m.serving_certificate = cert("kubelet-server-2026-01-01-00-02-10.pem");
        let b = machine_box(&m, &[], rect, Layout::Wide, Lang::En);
        let texts: Vec<&str> = b.credentials.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["kubelet-client-current.pem", "kubelet-server-current.pem"]);
        assert_eq!(
            b.credentials[1].label,
            "node-1: /var/lib/kubelet/pki/kubelet-server-current.pem, a symlink to kubelet-server-2026-01-01-00-02-10.pem"
        );
        assert!(b.credentials.iter().all(|c| c.health == Health::Ok));
        assert_eq!(height(&m), plain + 2.0 * (ROW_H + GAP));
        assert!(b.credentials[1].rect.y > b.credentials[0].rect.bottom());
        let ja = machine_box(&m, &[], rect, Layout::Wide, Lang::Ja);
        assert!(ja.credentials[0].label.contains("へのシンボリックリンク"), "{}", ja.credentials[0].label);
    }

    /// Chapter 6: node-2 powered off is drawn as off (not as a stopped kubelet), its volume is
    /// attached to it until the out-of-service taint lets it move with `db-0` to another node, and
    /// `db-0` keeps its name there, shown as the StatefulSet's ordinal 0.
    #[test]
    fn a_powered_off_machine_its_volume_and_the_pods_identity() {
        let s = scene_at(Chapter::NodeGoesAway, "", 400, Layout::Wide);
        let node2 = s.machines.iter().find(|m| m.name == "node-2").expect("node-2");
        assert!(node2.powered_off);
        assert_eq!(node2.kubelet.label, "node-2: machine powered off");
        assert_eq!(node2.runtime.chip.label, "node-2: containerd stopped");
        let vol = &node2.volumes[0];
        assert!(vol.attached && vol.text.starts_with("db-0: pvc-"), "{}", vol.text);
        assert!(vol.label.starts_with("node-2: volume pvc-") && vol.label.ends_with("attached, used by Pod db-0"));
        assert!(vol.object.starts_with("VolumeAttachment//csi-"), "{}", vol.object);
        assert!(crate::view::inspector::yaml::parse_value(&vol.object).is_some(), "the YAML tab can open it");
        let killed = scene_at(Chapter::NodeFailure, "", 200, Layout::Wide);
        assert!(!killed.machines[0].powered_off);
        assert_eq!(killed.machines[0].kubelet.text, "kubelet stopped");

        let end = scene_at(Chapter::NodeGoesAway, "", 810, Layout::Wide);
        let (with, without): (Vec<_>, Vec<_>) = end.machines.iter().partition(|m| !m.volumes.is_empty());
        assert_eq!(with.len(), 1, "the volume is attached to one node");
        assert_ne!(with[0].name, "node-2", "it moved");
        assert!(without.iter().any(|m| m.name == "node-2"));
        let db = end.store.pods.iter().find(|p| p.name == "db-0").expect("db-0 again");
        assert_eq!(db.identity.as_deref(), Some("StatefulSet db · ordinal 0"));
        assert_eq!(db.owner.as_deref(), Some("StatefulSet/default/db"));
        assert!(db.detail.ends_with(&with[0].name), "{}", db.detail);
    }

    /// Every layout keeps its parts inside the view box and apart, with one to six machines.
    #[test]
    fn layouts_fit_their_view_box_without_overlaps() {
        for layout in [Layout::Wide, Layout::Narrow] {
            for extra in 0..5 {
                let actions: Vec<String> = (0..extra).map(|i| format!("add-machine@{}s", 100 + i)).collect();
                let s = scene_at(Chapter::NodeFailure, &actions.join(","), 200, layout);
                assert_eq!(s.machines.len(), 2 + extra);
                let all = Rect::new(0.0, 0.0, s.width, s.height);
                for (i, m) in s.machines.iter().enumerate() {
                    assert!(all.contains(&m.rect), "{layout:?} {i}: {:?}", m.rect);
                    for part in [m.kubelet.rect, m.runtime.rect, m.network.rect, m.runtime.containers.rect] {
                        assert!(m.rect.contains(&part), "{layout:?} {i}: {part:?} outside {:?}", m.rect);
                    }
                    for o in &s.machines[i + 1..] {
                        assert!(!m.rect.overlaps(&o.rect), "{layout:?}: machines overlap");
                    }
                    assert!(m.rect.bottom() < s.control_plane.title_at.y, "{layout:?}: machine over the control plane");
                }
                let cp = &s.control_plane;
                for a in &cp.actors {
                    assert!(all.contains(&a.rect), "{layout:?}: {a:?}");
                    assert!(!a.rect.overlaps(&cp.apiserver), "{layout:?}: {a:?} over the API server");
                }
                assert!(all.contains(&s.store.frame));
                for c in s.store.nodes.iter().map(|n| n.rect).chain(s.store.leases.iter().map(|l| l.rect)) {
                    assert!(s.store.frame.contains(&c), "{layout:?}: {c:?}");
                }
                // A machine's link never runs across another machine.
                for (l, own) in s.lines.iter().zip(&s.machines) {
                    let len = l.route.length();
                    for k in 0..=(len / 2.0) as usize {
                        let p = l.route.at(k as f32 * 2.0 / len);
                        for m in s.machines.iter().filter(|m| m.name != own.name) {
                            let inside = Rect::new(m.rect.x + 1.0, m.rect.y + 1.0, m.rect.w - 2.0, m.rect.h - 2.0);
                            assert!(
                                !inside.contains(&Rect::new(p.x, p.y, 0.0, 0.0)),
                                "{layout:?}: {} crosses {}",
                                own.name,
                                m.name
                            );
                        }
                    }
                }
                for l in &s.lines {
                    for p in &l.route.points {
                        assert!(p.x >= 0.0 && p.x <= s.width && p.y >= 0.0 && p.y <= s.height, "{layout:?}: {l:?}");
                    }
                    assert!(l.route.length() > 20.0, "{layout:?}: arrow too short to see a packet move: {l:?}");
                }
            }
        }
    }

    /// Narrow: every client's arrow comes down its own channel into the API server's top edge,
    /// crossing no other box, and the drawing is narrow enough for 12 px text on a 360 px phone.
    #[test]
    fn narrow_arrows_come_down_into_the_api_server() {
        // A 360 px window: 12 px side margins, 1 px borders and 4 px padding around the stage.
        assert!(326.0 / Layout::Narrow.width() * 10.0 >= 12.0);
        for extra in [0, 4] {
            let actions: Vec<String> = (0..extra).map(|i| format!("add-machine@{}s", 100 + i)).collect();
            let s = scene_at(Chapter::NodeFailure, &actions.join(","), 200, Layout::Narrow);
            let cp = &s.control_plane;
            let api = cp.apiserver;
            let boxes: Vec<Rect> = s.machines.iter().map(|m| m.rect).chain(cp.actors.iter().map(|a| a.rect)).collect();
            for l in &s.lines {
                let end = *l.route.points.last().unwrap();
                assert!((end.y - api.y).abs() < 0.01 && end.x > api.x && end.x < api.right(), "{l:?}");
                // Off the sender's box, no point of the arrow lies inside a box.
                let len = l.route.length();
                for k in 1..(len / 2.0) as usize {
                    let p = l.route.at(k as f32 * 2.0 / len);
                    let hits = boxes.iter().filter(|r| {
                        r.x < p.x - 1.0 && p.x + 1.0 < r.right() && r.y < p.y - 1.0 && p.y + 1.0 < r.bottom()
                    });
                    assert_eq!(hits.count(), 0, "{:?} runs across a box at {p:?}", l.sender);
                }
            }
            // The channels and lanes are all different.
            let mut xs: Vec<i32> = s.lines.iter().map(|l| l.route.points.last().unwrap().x.round() as i32).collect();
            xs.sort_unstable();
            xs.dedup();
            assert_eq!(xs.len(), s.lines.len());
        }
    }

    #[test]
    fn picks_the_layout_by_width() {
        assert_eq!(Layout::for_width(390.0, 1440.0), Layout::Narrow);
        assert_eq!(Layout::for_width(815.0, 1440.0), Layout::Wide);
        // A phone or a small tablet, however wide its stage: narrow.
        assert_eq!(Layout::for_width(700.0, 767.0), Layout::Narrow);
        assert_eq!(Layout::for_width(700.0, 768.0), Layout::Wide);
        // Not measured yet: wide.
        assert_eq!(Layout::for_width(0.0, 0.0), Layout::Wide);
    }
}
