{{ doc }}export type {{ name }}{{ params }} = {{ target }}
