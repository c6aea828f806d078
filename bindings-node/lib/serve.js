'use strict'; module.exports = { serve() { throw new Error('todo') } }
