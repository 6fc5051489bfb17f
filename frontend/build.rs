fn main() {
    lalrpop::process_src().expect("the grammar of the .ic language must compile");
}
