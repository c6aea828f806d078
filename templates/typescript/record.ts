{{ doc }}export interface {{ name }}{{ params }} {
{{ members }}}
