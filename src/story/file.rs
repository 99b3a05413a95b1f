//! A story file as it is written: the YAML's shape, key by key. [`super::load`] reads it with
//! the line and column of every value that a check may have to point at, and the JSON Schema
//! (`stories/story.schema.json`) is derived from these types.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

/// A story: a starting cluster, what happens to it, and the steps that tell it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(title = "nodeline story")]
pub struct StoryFile {
    /// The story's id, its file name without `.yaml`: lowercase letters, digits and dashes
    /// (`two-nodes-fail`). Links open it as `?story=ID`.
    #[schemars(with = "String", regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"))]
    pub id: Spanned<String>,
    /// The story's title, per language.
    #[schemars(with = "Texts")]
    pub title: Spanned<Texts>,
    /// One sentence on what the story shows, per language.
    #[schemars(with = "Texts")]
    pub summary: Spanned<Texts>,
    /// Where the page's chapter list shows the story: before the chapter with this id
    /// (`registration`, `node-failure`, …). Without it the story is listed after the chapters,
    /// among "more stories".
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub list_before: Option<Spanned<String>>,
    /// The Kubernetes version the cluster runs: `"1.34"` (the default) or `"1.31"` (1.30 and
    /// 1.31 behave alike for everything the simulation shows).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub k8s: Option<Spanned<String>>,
    /// The cluster at the start: its machines and its Deployments.
    pub cluster: Cluster,
    /// Settings of the cluster's components, by component and by the name Kubernetes gives them.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, BTreeMap<String, SettingValue>>>")]
    pub settings: Option<Spanned<BTreeMap<String, Spanned<Values>>>>,
    /// What happens, in the link notation: `ACTION[+FLAG...][:TARGET]@TIME`
    /// (`kill-kubelet:node-1@2m`, `drain+ignore-daemonsets:node-1@3m`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub actions: Vec<Spanned<String>>,
    /// How long the story runs, in Go's notation (`9m`, `13m30s`).
    #[schemars(with = "String")]
    pub duration: Spanned<String>,
    /// The steps, in order: each a moment of the story found by what happens.
    #[schemars(with = "Vec<Step>", length(min = 1))]
    pub steps: Spanned<Vec<Step>>,
    /// Question mode's questions: where the story stops to ask, and what the reader predicts.
    /// Every answer is found in the story's timeline, never typed in.
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// A question: the story stops at the start of a step and asks; exactly one of `choice`,
/// `order`, `time` and `node` says what is asked.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Question {
    /// The question's id, unique in the story (lowercase letters, digits and dashes).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The step (1-based) at whose start the story stops to ask.
    #[schemars(with = "usize", range(min = 1))]
    pub stop: Spanned<usize>,
    /// The question, per language.
    #[schemars(with = "Texts")]
    pub prompt: Spanned<Texts>,
    /// Pick one: the right option is the first of them to happen after the stop.
    #[serde(default)]
    pub choice: Option<Vec<Choice>>,
    /// Put in order: the options in the order they happen after the stop (all of them must).
    #[serde(default)]
    pub order: Option<Vec<Choice>>,
    /// How many seconds from one moment to another.
    #[serde(default)]
    pub time: Option<TimeQuestion>,
    /// On which node the first Pod created after the stop is placed.
    #[serde(default)]
    pub node: Option<NodeQuestion>,
    /// Why the answer is what it is, per language; `{0}` stands for the answer (the seconds of a
    /// time question, the node of a node question).
    #[schemars(with = "Texts")]
    pub why: Spanned<Texts>,
}

/// An option: a moment of the story, and its words.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Choice {
    #[schemars(with = "When")]
    pub when: Spanned<When>,
    #[schemars(with = "Texts")]
    pub label: Spanned<Texts>,
}

/// A time question: from the first `from` in the story to the first `to` after both it and
/// the stop.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TimeQuestion {
    #[schemars(with = "When")]
    pub from: Spanned<When>,
    #[schemars(with = "When")]
    pub to: Spanned<When>,
    /// How far off an answer may be (default `5s`, the node monitor's period).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub tolerance: Option<Spanned<String>>,
}

/// A node question (no keys: `node: {}`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeQuestion {}

/// One component's settings: each value with its place.
pub type Values = BTreeMap<String, Spanned<SettingText>>;

/// A setting's value: a duration (`20s`), a number (`0.1`, `30`), a boolean, or a map from an
/// eviction signal to a value (`{memory.available: 500Mi}`).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum SettingValue {
    Text(String),
    Number(f64),
    Boolean(bool),
    Map(BTreeMap<String, String>),
}

/// A setting's value as text, the form `--set` takes: a scalar as written, a map as the
/// kubelet's flags write one (`memory.available=500Mi`, entries joined by commas; `{}` empty).
#[derive(Debug)]
pub struct SettingText(pub String);

impl<'de> Deserialize<'de> for SettingText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SettingText, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = SettingText;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a duration, a number, a boolean or a map of eviction signals")
            }
            fn visit_str<E>(self, v: &str) -> Result<SettingText, E> {
                Ok(SettingText(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<SettingText, E> {
                Ok(SettingText(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<SettingText, E> {
                Ok(SettingText(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<SettingText, E> {
                Ok(SettingText(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<SettingText, E> {
                Ok(SettingText(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<SettingText, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, SettingText>()? {
                    entries.push(format!("{k}={}", v.0));
                }
                Ok(SettingText(if entries.is_empty() { "{}".into() } else { entries.join(",") }))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A text in each language the story speaks: English always, Japanese where given (a story
/// without Japanese shows English in the Japanese page, with a notice).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    pub en: String,
    #[serde(default)]
    pub ja: Option<String>,
}

/// Paragraphs in each language: `` `code` `` for Kubernetes identifiers, `[[target|words]]` for
/// words that point at the stage.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Paragraphs {
    #[schemars(length(min = 1))]
    pub en: Vec<String>,
    #[serde(default)]
    pub ja: Option<Vec<String>>,
}

/// The cluster at the start.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Cluster {
    /// The machines, each with a kubelet that registers it as a Node (`node-1`, `node-2`, ...).
    #[serde(default)]
    pub machines: Vec<Machine>,
    /// Instead of `machines`: this many machines (3 to 1000), `node-1`, `node-2`, ..., spread
    /// evenly over the zones `eu-west-1a`, `eu-west-1b`, `eu-west-1c` in blocks, labelled as a
    /// cloud provider labels them.
    #[serde(default)]
    #[schemars(with = "Option<usize>", range(min = 3, max = 1000))]
    pub fleet: Option<Spanned<usize>>,
    /// The Deployments, each created by the reader's kubectl at its time.
    #[serde(default)]
    pub deployments: Vec<Deployment>,
}

/// A machine.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Machine {
    /// The machine's name, and its Node's: a DNS label.
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// When its kubelet starts (default `0s`, at boot), or `never`: it waits for a
    /// `start-kubelet` action.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub kubelet_start: Option<Spanned<String>>,
    /// When its CNI plugin's configuration appears (default: already there). Until then the
    /// runtime reports `NetworkReady=false` and the Node is not Ready.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub cni_ready_after: Option<Spanned<String>>,
    /// Labels the kubelet registers the Node with (`--node-labels`), e.g. the zone.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// This machine's kubelet's settings (KubeletConfiguration field names), over the
    /// story's `settings.kubelet`.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, SettingValue>>")]
    pub kubelet: Option<Spanned<Values>>,
    /// The machine starts with only a bootstrap kubeconfig (a bootstrap token's, as `kubeadm
    /// join` leaves it): its kubelet asks for its client certificate with a
    /// CertificateSigningRequest, which kube-controller-manager approves and signs, before it
    /// registers its Node. Default `false`: it starts with its credentials.
    #[serde(default)]
    pub bootstrap: bool,
    /// The kubelet's `serverTLSBootstrap`: it asks for its serving certificate with a
    /// CertificateSigningRequest (`kubernetes.io/kubelet-serving`) once it knows its Node's
    /// addresses; no controller approves it (`kubectl certificate approve`). Default `false`.
    #[serde(default, rename = "serverTLSBootstrap")]
    pub server_tls_bootstrap: bool,
}

/// A Deployment (`kubectl create deployment NAME --image=nginx --replicas=N`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Deployment {
    /// Its name; its ReplicaSet is `NAME-HASH`, its Pods `NAME-HASH-XXXXX`.
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "i32", range(min = 0, max = 10000))]
    pub replicas: Spanned<i32>,
    /// When it is created (default: `5s`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub created_after: Option<Spanned<String>>,
}

/// One step.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Step {
    /// What marks the step: the first time it happens after the previous step's mark.
    #[schemars(with = "When")]
    pub when: Spanned<When>,
    /// What the step shows, when later than `when`: searched from `when` on.
    #[serde(default)]
    #[schemars(with = "Option<When>")]
    pub shows: Option<Spanned<When>>,
    /// How long before the mark playing from this step starts (default `0s`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub lead: Option<Spanned<String>>,
    /// How long after the mark (or what it shows) the paused step stands: `500ms` lets a request
    /// land on the stage with its answer (default `0s`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub after: Option<Spanned<String>>,
    /// The step's title, per language.
    #[schemars(with = "Texts")]
    pub title: Spanned<Texts>,
    /// The step's narration, per language.
    #[schemars(with = "Paragraphs")]
    pub text: Spanned<Paragraphs>,
}

/// What marks a step: one of these keys.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum When {
    /// A fixed time (`90s`).
    At(String),
    /// The first time one of the story's actions (or the reader's) of this name is applied
    /// (`kill-kubelet`).
    Input(String),
    /// The first Event with this reason whose message contains the text.
    Event {
        reason: String,
        #[serde(default)]
        contains: String,
    },
    /// The first API request with this method whose path ends with the text.
    #[serde(rename_all = "camelCase")]
    Request { method: String, path_ends: String },
    /// The first moment the Node carries this taint.
    Taint { node: String, key: String, effect: String },
    /// The first line the reader's kubectl prints that contains the text.
    Kubectl(String),
    /// The first log line of any component that contains the text.
    LogLine(String),
}
