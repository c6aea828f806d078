pub mod random_types;
