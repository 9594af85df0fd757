//! Index handles and the dense maps they index, in the manner of Cranelift's entity module.
//!
//! Every IR object (value, instruction, block, function, scope, string) lives in a vector
//! owned by its container and is named by a `u32` newtype. Handles are `Copy`, compare by
//! index and print as `%N`, `%BBN` and so on in the text form.

use std::marker::PhantomData;

/// A `u32` handle into an `EntityMap`.
pub trait EntityRef: Copy + Eq + std::hash::Hash + Ord + std::fmt::Debug {
    /// The handle for index `index`.
    fn new(index: usize) -> Self;
    /// The index this handle names.
    fn index(self) -> usize;
}

/// Declares a `u32` entity handle type.
#[macro_export]
macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:literal) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $crate::entity::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).expect("entity index overflows u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

/// A dense vector indexed by an entity handle; entities are only ever appended.
#[derive(Clone)]
pub struct EntityMap<K: EntityRef, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> Default for EntityMap<K, V> {
    fn default() -> Self {
        EntityMap { items: Vec::new(), _key: PhantomData }
    }
}

impl<K: EntityRef, V> EntityMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends `value` and returns its handle.
    pub fn push(&mut self, value: V) -> K {
        let key = K::new(self.items.len());
        self.items.push(value);
        key
    }
    /// The number of entities.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether there are no entities.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Every handle, in creation order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + use<K, V> {
        (0..self.items.len()).map(K::new)
    }
    /// Every `(handle, value)` pair, in creation order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// Every value, in creation order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.items.iter()
    }
    /// Every value, mutably.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.items.iter_mut()
    }
    /// The value for `key`, if it exists.
    pub fn get(&self, key: K) -> Option<&V> {
        self.items.get(key.index())
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for EntityMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.items[key.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for EntityMap<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.items[key.index()]
    }
}

/// A map from entity handles to values, stored densely by handle index: a hash map's
/// interface at a vector's cost, for the per-block and per-value tables of passes (a
/// function's handles are small and dense).
#[derive(Clone, Debug)]
pub struct SecondaryMap<K: EntityRef, V> {
    items: Vec<Option<V>>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        SecondaryMap { items: Vec::new(), _key: PhantomData }
    }
}

impl<K: EntityRef, V> SecondaryMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// The value for `key`, if there is one.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.items.get(key.index()).and_then(Option::as_ref)
    }
    /// The value for `key`, mutably, if there is one.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.items.get_mut(key.index()).and_then(Option::as_mut)
    }
    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.get(key).is_some()
    }
    /// Sets the value for `key`, returning the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let i = key.index();
        if i >= self.items.len() {
            self.items.resize_with(i + 1, || None);
        }
        self.items[i].replace(value)
    }
}

impl<K: EntityRef, V> std::ops::Index<&K> for SecondaryMap<K, V> {
    type Output = V;
    /// The value for `key`; panics when there is none, as a hash map's index does.
    fn index(&self, key: &K) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<K: EntityRef, V: std::fmt::Debug> std::fmt::Debug for EntityMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}
